//! `#[cfg]` inside a `#[sarek::module]`. The macro runs before rustc evaluates `cfg` on the
//! items it receives, and it cannot evaluate `cfg` itself (features, targets and `--cfg`
//! flags are rustc's), so a cfg'd struct, enum, helper, constant or `impl` would reach the
//! GPU code with every alternative at once: two cfg-alternative structs of one name would
//! conflict, and a cfg'd-out field would still be laid out and asserted. Rather than compile
//! something other than what rustc compiles, such a `#[cfg]` is refused at the attribute,
//! with the way to write it: one module per alternative, chosen with `#[cfg]` on the module.
//! `#[cfg]` stays allowed where it changes nothing the GPU sees: on kernels (their generated
//! items carry it), `use`, `mod`, macros and other items the kernels cannot read.

use syn::spanned::Spanned;

use super::diagnostic::{Diagnostics, ErrorKind};

const WHY: &str = "`#[cfg]` is not supported on the structs, enums, helpers, constants and `impl`s of a `#[sarek::module]`, nor on their fields and variants: the macro reads them before rustc evaluates `cfg`, so the GPU code and the layout checks would see every alternative at once. Put each alternative in a `#[sarek::module]` of its own and choose the module with `#[cfg]` (`#[cfg(feature = \"fast\")] #[sarek::module] mod fast { .. }`), or move the item out of the module if no kernel uses it";

/// An error at each `#[cfg]` on an item that kernels read, or on its fields or variants.
pub fn refuse(items: &[syn::Item], is_kernel: impl Fn(&syn::ItemFn) -> bool) -> Diagnostics {
    let mut errors = Diagnostics::new();
    for item in items {
        match item {
            syn::Item::Struct(s) => {
                attrs(&s.attrs, &mut errors);
                fields(&s.fields, &mut errors);
            }
            syn::Item::Enum(e) => {
                attrs(&e.attrs, &mut errors);
                for v in &e.variants {
                    attrs(&v.attrs, &mut errors);
                    fields(&v.fields, &mut errors);
                }
            }
            syn::Item::Fn(f) if !is_kernel(f) => attrs(&f.attrs, &mut errors),
            syn::Item::Const(c) => attrs(&c.attrs, &mut errors),
            syn::Item::Type(t) => attrs(&t.attrs, &mut errors),
            syn::Item::Impl(i) => {
                attrs(&i.attrs, &mut errors);
                for it in &i.items {
                    match it {
                        syn::ImplItem::Fn(f) => attrs(&f.attrs, &mut errors),
                        syn::ImplItem::Const(c) => attrs(&c.attrs, &mut errors),
                        syn::ImplItem::Type(t) => attrs(&t.attrs, &mut errors),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    errors
}

fn fields(fields: &syn::Fields, errors: &mut Diagnostics) {
    for f in fields {
        attrs(&f.attrs, errors);
    }
}

fn attrs(attrs: &[syn::Attribute], errors: &mut Diagnostics) {
    for a in attrs.iter().filter(|a| a.path().is_ident("cfg")) {
        errors.push(a.span(), ErrorKind::unsupported(WHY));
    }
}
