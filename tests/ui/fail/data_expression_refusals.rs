#[sarek::module]
mod m {
    use sarek::prelude::*;

    pub struct P {
        pub x: f32,
        pub y: f32,
    }

    pub enum Shape {
        Circle(f32),
        Square { side: f32 },
    }

    fn total(xs: &[f32]) -> f32 {
        xs[0]
    }

    #[sarek::kernel]
    pub fn enum_field(shapes: &[Shape], out: &mut [f32]) {
        out[0] = shapes[0].side;
    }

    #[sarek::kernel]
    pub fn missing_field(out: &mut [f32]) {
        let p = P { x: 1.0 };
        out[0] = p.x;
    }

    #[sarek::kernel]
    pub fn unknown_field(out: &mut [f32]) {
        let p = P { x: 1.0, y: 2.0 };
        out[0] = p.z;
    }

    #[sarek::kernel]
    pub fn variant_arity(out: &mut [f32]) {
        let s = Shape::Circle(1.0, 2.0);
        out[0] = 0.0;
    }

    #[sarek::kernel]
    pub fn local_as_slice(out: &mut [f32]) {
        let a = [1.0f32; 4];
        out[0] = total(&a);
    }

    #[sarek::kernel]
    pub fn unqualified_variant(shapes: &[Shape], out: &mut [f32]) {
        let i = global_thread_id();
        out[i] = match shapes[i] {
            Shape::Circle(r) => r,
            Square { side } => side,
        };
    }
}

fn main() {}
