//! `#[cfg]` on a module's items and fields: the macro expands the module once per
//! combination of the predicates, and rustc keeps the variant it compiles, so the kernel's
//! WGSL and ABI are those of the items that are on. `#[cfg(all())]` always holds and
//! `#[cfg(any())]` never does; `debug_assertions` depends on the build.

// `#[cfg(all())]` is the point: a predicate that always holds.
#![allow(clippy::non_minimal_cfg)]

use crate::common::backends;
use sarek::Device;

use sarek::Grid;

#[sarek::module]
mod cfgd {
    use sarek::prelude::*;

    #[derive(Debug, PartialEq)]
    #[cfg(all())]
    pub struct P {
        pub x: f32,
        #[cfg(any())]
        pub hidden: u32,
        #[cfg(not(any()))]
        pub y: f32,
    }

    /// The alternative that is off: its single field would change the layout.
    #[cfg(any())]
    pub struct P {
        pub x: f32,
    }

    #[cfg(debug_assertions)]
    const SCALE: f32 = 2.0;
    #[cfg(not(debug_assertions))]
    const SCALE: f32 = 3.0;

    #[cfg(any())]
    fn pick(p: P) -> f32 {
        p.x
    }

    #[cfg(all())]
    fn pick(p: P) -> f32 {
        p.x + p.y
    }

    impl P {
        #[cfg(all())]
        pub fn weight(&self) -> f32 {
            2.0
        }

        #[cfg(any())]
        pub fn weight(&self) -> f32 {
            1.0
        }
    }

    #[sarek::kernel(workgroup_size = [64])]
    pub fn k(ps: &[P], out: &mut [f32]) {
        let i = global_thread_id();
        if i < ps.len() {
            out[i] = pick(ps[i]) * SCALE + ps[i].weight();
        }
    }
}

use cfgd::P;

#[backends]
fn cfg_on_module_items_and_fields_is_honoured(dev: Device) {
    // The WGSL is that of the items rustc compiles: `y` is there, `hidden` is not.
    assert!(cfgd::k::WGSL.contains("y: f32"), "{}", cfgd::k::WGSL);
    assert!(!cfgd::k::WGSL.contains("hidden"), "{}", cfgd::k::WGSL);
    assert_eq!(std::mem::size_of::<P>(), 8);
    let n = 100;
    let ps: Vec<P> = (0..n)
        .map(|i| P {
            x: i as f32,
            y: 0.5,
        })
        .collect();
    let buf = dev.upload(&ps).unwrap();
    let mut out = dev.zeros::<f32>(n).unwrap();
    cfgd::k
        .launch(&dev, Grid::cover(n), &buf, &mut out)
        .unwrap();
    let scale = if cfg!(debug_assertions) { 2.0 } else { 3.0 };
    let expected: Vec<f32> = ps
        .iter()
        .map(|p| (p.x + p.y) * scale + p.weight())
        .collect();
    assert_eq!(out.read().unwrap(), expected);
}
