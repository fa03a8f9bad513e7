//! The library scan (`sarek::algo::scan::Scan`): both sets of passes (with subgroup operations where
//! the device has them, and the portable ones) against the host, at sizes around the tile
//! (8192 floats) and the per-thread share, on the GPU and the CPU backend.

use sarek::algo::scan::{Scan, TILE};
use sarek::{Device, Vec4};

use crate::common::{backends, random_u32};

/// -1, 0 or 1: every prefix is a small integer, exact in any order of addition, so the
/// device's result must equal the host's exactly.
fn input(n: usize) -> Vec<f32> {
    random_u32(7, n)
        .iter()
        .map(|v| (v % 3) as f32 - 1.0)
        .collect()
}

fn host_scan(xs: &[f32]) -> Vec<f32> {
    let mut s = 0.0;
    xs.iter()
        .map(|v| {
            s += v;
            s
        })
        .collect()
}

/// The floats (a multiple of four) each test scans: one `Vec4`, part of a tile, a tile less
/// and more one `Vec4`, several whole tiles (the subgroup scan's kernel without guards),
/// several tiles with a partial last one.
fn sizes() -> Vec<usize> {
    vec![4, 1000, TILE - 4, TILE, TILE + 4, 3 * TILE, 5 * TILE + 1236]
}

fn check(dev: Device, subgroups: bool) {
    if subgroups && !dev.features().contains(sarek::wgpu::Features::SUBGROUP) {
        eprintln!(
            "skipping the subgroup scan: {} has no subgroups",
            dev.name()
        );
        return;
    }
    for n in sizes() {
        let xs = input(n);
        let x = dev.upload(bytemuck::cast_slice::<f32, Vec4>(&xs)).unwrap();
        let mut out = dev.zeros::<Vec4>(n / 4).unwrap();
        let mut scan = Scan::with_subgroups(&dev, n / 4, subgroups).unwrap();
        scan.run(&x, &mut out).unwrap().wait().unwrap();
        let got: Vec<f32> = bytemuck::cast_slice(&out.read().unwrap()).to_vec();
        assert_eq!(got, host_scan(&xs), "{n} floats, subgroups {subgroups}");
        // A second run over the same scratch gives the same result.
        scan.run(&x, &mut out).unwrap().wait().unwrap();
        let again: Vec<f32> = bytemuck::cast_slice(&out.read().unwrap()).to_vec();
        assert_eq!(again, got);
    }
}

#[backends]
fn scan_with_subgroups_matches_the_host(dev: Device) {
    check(dev, true);
}

#[backends]
fn portable_scan_matches_the_host(dev: Device) {
    check(dev, false);
}

#[backends]
fn scan_new_picks_what_the_device_has(dev: Device) {
    let xs: Vec<f32> = (0..4 * 3000).map(|i| (i % 5) as f32 * 0.5).collect();
    let x = dev.upload(bytemuck::cast_slice::<f32, Vec4>(&xs)).unwrap();
    let mut out = dev.zeros::<Vec4>(3000).unwrap();
    Scan::new(&dev, 3000)
        .unwrap()
        .run(&x, &mut out)
        .unwrap()
        .wait()
        .unwrap();
    let got: Vec<f32> = bytemuck::cast_slice(&out.read().unwrap()).to_vec();
    // Multiples of 1/2 below 2^24: exact too.
    assert_eq!(got, host_scan(&xs));
}

/// A scan made for one length refuses buffers of another, naming both.
#[backends]
fn a_scan_serves_one_length(dev: Device) {
    let x = dev.zeros::<Vec4>(11).unwrap();
    let mut out = dev.zeros::<Vec4>(10).unwrap();
    let mut scan = Scan::new(&dev, 10).unwrap();
    let mut batch = dev.batch();
    match scan.enqueue(&mut batch, &x, &mut out) {
        Err(e @ sarek::Error::BadArguments { .. }) => assert!(
            e.to_string()
                .contains("the scan was made for 10 Vec4s; `x` holds 11"),
            "{e}"
        ),
        other => panic!("not refused as it should be: {:?}", other.err()),
    }
}

/// The last pass zeroes the clamped loads past the end with `select`, as its hand-written twin
/// does, not with a branch and a temporary per load (an `if` between vectors used to lower to
/// one).
#[test]
fn the_last_pass_zeroes_clamped_loads_without_branches() {
    for wgsl in [
        sarek::algo::scan::scan_apply::WGSL,
        sarek::algo::scan::scan_apply_sg::WGSL,
    ] {
        assert!(wgsl.contains("select(vec4<f32>()"), "{wgsl}");
        assert!(!wgsl.contains("__if"), "{wgsl}");
    }
}

/// The last pass over whole tiles reads nothing from the uniform block (no length, no guard):
/// on an H200 that read alone cost pass 3 about 1.5% against its twin (BENCHMARKS.md, "The
/// scan's whole tiles"). Its folded entry point (grids past 65535 workgroups) reads the grid
/// size there, as every folded entry does.
#[test]
fn the_last_pass_over_whole_tiles_reads_no_uniform() {
    let wgsl = sarek::algo::scan::scan_apply_sg_whole::WGSL;
    let start = wgsl.find("fn sarek_main(").expect("the entry point");
    let end = wgsl.find("fn sarek_main_folded(").unwrap_or(wgsl.len());
    let main = &wgsl[start..end];
    assert!(!main.contains("sarek_params."), "{main}");
}
