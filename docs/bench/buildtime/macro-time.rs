//! Times `#[sarek::kernel]`'s expansion of the kernels of a source file (what the macro does
//! in a user's build), compiled as cargo compiles a proc macro in a release build.
fn main() {
    let path = std::env::args().nth(1).expect("a file");
    let file: syn::File = syn::parse_file(&std::fs::read_to_string(path).unwrap()).unwrap();
    let kernels: Vec<(proc_macro2::TokenStream, syn::ItemFn)> = file
        .items
        .iter()
        .filter_map(|i| match i {
            syn::Item::Fn(f) => f
                .attrs
                .iter()
                .find(|a| a.path().segments.last().is_some_and(|s| s.ident == "kernel"))
                .map(|a| {
                    let attr = match &a.meta {
                        syn::Meta::List(l) => l.tokens.clone(),
                        _ => proc_macro2::TokenStream::new(),
                    };
                    let mut f = f.clone();
                    f.attrs.retain(|x| !x.path().segments.last().is_some_and(|s| s.ident == "kernel"));
                    (attr, f)
                }),
            _ => None,
        })
        .collect();
    for round in 0..3 {
        let start = std::time::Instant::now();
        let mut bytes = 0;
        for (attr, f) in &kernels {
            let out = sarek_codegen::front::expand_kernel(attr.clone(), quote::quote!(#f));
            bytes += out.to_string().len();
        }
        println!(
            "round {round}: {} kernels expanded in {:.1} ms ({bytes} bytes of tokens)",
            kernels.len(),
            start.elapsed().as_secs_f64() * 1e3
        );
    }
}
