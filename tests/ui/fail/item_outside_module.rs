pub struct Outside {
    pub x: f32,
}

#[sarek::module]
mod m {
    use sarek::prelude::*;

    #[sarek::kernel]
    pub fn by_param(p: super::Outside, out: &mut [f32]) {
        out[0] = p.x;
    }

    #[sarek::kernel]
    pub fn in_body(out: &mut [f32]) {
        let p = super::Outside { x: 1.0 };
        out[0] = p.x;
    }
}

fn main() {}
