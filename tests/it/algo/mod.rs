//! `sarek::algo`: every algorithm against a host reference, on every backend (the property
//! tests run each case on each backend, `crate::differential::backends`).

mod attention;
mod histogram;
mod matmul;
mod reduce;
mod rows;
mod select;
mod sort;
mod topk;

/// Asserts that a call of the library was refused with [`sarek::Error::BadArguments`] whose
/// message contains `text`.
fn refused<T>(result: sarek::Result<T>, text: &str) {
    match result {
        Err(e @ sarek::Error::BadArguments { .. }) => {
            assert!(e.to_string().contains(text), "`{e}` does not say `{text}`")
        }
        Err(e) => panic!("refused with another error: {e}"),
        Ok(_) => panic!("not refused; expected an error saying `{text}`"),
    }
}
