//! A hidden `#[repr(C)]` twin must not get `Pod` when implicit padding
//! opens inside it. Here the module imports two user types under vector names: `Vec4`,
//! whose `Gpu` is `[f32; 3]` (12 bytes where WGSL's `vec4<f32>` takes 16), followed by
//! `UVec4`, whose `Gpu` is over-aligned to 16 bytes, so `#[repr(C)]` would pad 4 bytes
//! between them (and the `bool` makes the struct a twin).

mod user {
    #[derive(Clone, Copy)]
    pub struct Vec4 {
        pub v: [f32; 3],
    }
    impl sarek::Element for Vec4 {
        type Gpu = [f32; 3];
        fn to_gpu(self) -> [f32; 3] {
            self.v
        }
        fn from_gpu(gpu: [f32; 3]) -> Option<Self> {
            Some(Vec4 { v: gpu })
        }
    }

    #[derive(Clone, Copy, bytemuck::Zeroable, bytemuck::Pod)]
    #[repr(C, align(16))]
    pub struct Wide {
        pub x: [u32; 4],
    }

    #[derive(Clone, Copy)]
    pub struct UVec4(pub Wide);
    impl sarek::Element for UVec4 {
        type Gpu = Wide;
        fn to_gpu(self) -> Wide {
            self.0
        }
        fn from_gpu(gpu: Wide) -> Option<Self> {
            Some(UVec4(gpu))
        }
    }
}

#[sarek::module]
mod m {
    use crate::user::{UVec4, Vec4};
    use sarek::prelude::global_thread_id;

    pub struct Flagged {
        pub a: Vec4,
        pub b: UVec4,
        pub flag: bool,
    }

    #[sarek::kernel]
    pub fn touch(xs: &mut [Flagged]) {
        let i = global_thread_id();
        if i < xs.len() {
            xs[i].flag = true;
        }
    }
}

fn main() {}
