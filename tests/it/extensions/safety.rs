//! What safe code cannot do: reach wgpu's experimental features without an `unsafe` opt-in;
//! and what it can: define kernels in code that forbids `unsafe`, since the `unsafe` that the
//! macros generate (the IR attached to a kernel's source, `Pod` for module structs) comes from
//! Sarek's expansion, not from the user's tokens.

use crate::common::gpu_only;

use sarek::Device;

#[gpu_only]
fn devices_have_no_experimental_features_unless_asked(dev: Device) {
    let experimental = sarek::wgpu::Features::all_experimental_mask();
    assert!(
        !dev.features().intersects(experimental),
        "{}: {:?}",
        dev.name(),
        dev.features() & experimental
    );
    assert!(dev.cooperative_matrix_shapes().is_empty(), "{}", dev.name());
    // Asking for them (an `unsafe` opt-in) gives them where the adapter has them.
    // SAFETY: this test accepts wgpu's contract for its experimental features.
    let options = unsafe { sarek::GpuOptions::new().experimental_features() };
    let asked = Device::gpu_with(options).unwrap();
    assert_eq!(asked.name(), dev.name());
}

#[forbid(unsafe_code)]
mod forbidden {
    use sarek::prelude::*;

    #[sarek::kernel]
    fn double(x: &mut [f32]) {
        let i = global_idx_x();
        if i < x.len() {
            x[i] *= 2.0;
        }
    }

    #[sarek::module]
    mod m {
        use sarek::prelude::*;

        pub struct Pair {
            pub a: f32,
            pub b: u32,
        }

        #[sarek::kernel]
        pub fn fill(out: &mut [Pair], v: f32) {
            let i = global_idx_x();
            if i < out.len() {
                out[i] = Pair { a: v, b: i as u32 };
            }
        }
    }

    #[test]
    fn kernels_compile_where_unsafe_code_is_forbidden() {
        let dev = Device::cpu();
        let mut x = dev.upload(&[1.0f32, 2.0]).unwrap();
        double.launch(&dev, Grid::cover(2), &mut x).unwrap();
        assert_eq!(x.read().unwrap(), [2.0, 4.0]);
        let mut out = dev.zeros::<m::Pair>(2).unwrap();
        m::fill.launch(&dev, Grid::cover(2), &mut out, 0.5).unwrap();
        assert_eq!(out.read().unwrap()[1].b, 1);
    }
}
