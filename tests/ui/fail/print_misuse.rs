#[sarek::module]
mod m {
    use sarek::prelude::*;

    #[derive(Clone, Copy, Debug)]
    pub struct P {
        pub x: f32,
        pub y: f32,
    }

    #[sarek::kernel]
    pub fn prints_a_struct(out: &mut [f32]) {
        let p = P { x: 1.0, y: 2.0 };
        gpu_println!("p = {:?}", p);
        out[0] = p.x;
    }

    #[sarek::kernel]
    pub fn prints_an_array(out: &mut [f32]) {
        let a = [1.0f32; 4];
        gpu_println!("a = {a:?}");
        out[0] = a[0];
    }

    #[sarek::kernel]
    pub fn asserts_with_a_struct_message(out: &mut [f32]) {
        let p = P { x: 1.0, y: 2.0 };
        assert!(out[0] > 0.0, p);
        out[0] = p.y;
    }

    #[sarek::kernel]
    pub fn prints_a_u64(out: &mut [u64]) {
        gpu_println!("{}", out[0]);
        out[0] = 1;
    }

    #[sarek::kernel]
    pub fn asserts_equal_u64(out: &mut [u64]) {
        assert_eq!(out[0], 0);
        out[0] = 1;
    }

    #[sarek::kernel]
    pub fn host_println(out: &mut [f32]) {
        println!("{}", out[0]);
    }
}

fn main() {}
