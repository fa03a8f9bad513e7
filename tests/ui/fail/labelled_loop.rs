// Labelled loops work (see tests/it/language/inference.rs); labelled blocks and `break` with a value
// have no WGSL form.
#[sarek::kernel]
fn k(out: &mut [i32]) {
    'outer: loop {
        let v = loop {
            break 1;
        };
        out[0] = v;
        break 'outer;
    }
    'block: {
        out[1] = 2;
        break 'block;
    }
}

// A deferred `let` that nothing assigns has no type.
#[sarek::kernel]
fn never_assigned(out: &mut [f32]) {
    let x;
    out[0] = 1.0;
}

fn main() {}
