//! Every refusal is a compile error at the offending token; the `.stderr` files are reviewed.
//! Regenerate them with `TRYBUILD=overwrite cargo test --test compile_fail`.

#[test]
fn refusals() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*.rs");
    t.pass("tests/ui/pass/*.rs");
}
