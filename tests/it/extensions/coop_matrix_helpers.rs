//! Cooperative matrices inside helpers: a helper declares its own matrices and loads them
//! from, and stores them to, the buffers and workgroup arrays it is given; every call must be
//! in uniform control flow (checked at the call, like a helper's subgroup operations).
//! lavapipe has no cooperative matrices (the launch fails with `MissingFeature`, the WGSL is
//! validated by naga when the kernel compiles); the CPU backend runs them.

use crate::common::backends;

use sarek::prelude::*;
use sarek_codegen::front::{attr, lower_kernel};

#[sarek::module]
mod library {
    use sarek::coop::{A, B, C};
    use sarek::prelude::*;

    /// `z[tile] = x[rows] * y[columns]` for the 16×16 tile at (`row`, `col`) of `n`×`n`
    /// row-major matrices.
    pub fn mma_tile(x: &[f32], y: &[f32], z: &mut [f32], n: usize, row: usize, col: usize) {
        let mut acc = CoopMatrix::<f32, 16, C>::zeros();
        let mut k = 0;
        while k < n {
            let a = CoopMatrix::<f32, 16, A>::load_rows(x, row * n + k, n);
            let b = CoopMatrix::<f32, 16, B>::load_rows(y, k * n + col, n);
            acc = a.multiply_add(b, acc);
            k += 16;
        }
        acc.store_rows(z, row * n + col, n);
    }

    /// `z = x * y`: one tile of `z` per workgroup, through the helper.
    #[sarek::kernel(workgroup_size = [32])]
    pub fn tiled(x: &[f32], y: &[f32], z: &mut [f32], n: u32) {
        let n = n as usize;
        let tiles = n / 16;
        let b = block_idx_x();
        mma_tile(x, y, z, n, b / tiles * 16, b % tiles * 16);
    }

    /// Adds the 8×8 identity's product `x · I` to `acc`'s tile of `tile` (a workgroup array):
    /// a helper's matrices next to the caller's, which must survive the call.
    fn add_through(tile: &mut [f32; 64], x: &[f32]) {
        let a = CoopMatrix::<f32, 8, A>::load_rows(x, 0, 8);
        let id = CoopMatrix::<f32, 8, B>::load_rows(x, 64, 8);
        let c = CoopMatrix::<f32, 8, C>::load_rows(tile, 0, 8);
        let r = a.multiply_add(id, c);
        r.store_rows(tile, 0, 8);
    }

    /// Stores element `which` (a run-time index) of two 8×8 matrices, the second `x`'s tile,
    /// at `z[64..128]`: a helper's array of matrices that stays an array.
    fn pick_tile(x: &[f32], z: &mut [f32], which: usize) {
        let mut t = [CoopMatrix::<f32, 8, C>::zeros(); 2];
        t[1] = CoopMatrix::load_rows(x, 0, 8);
        t[which].store_rows(z, 64, 8);
    }

    /// The caller's own array of matrices, indexed by constants (so split into variables,
    /// numbered after the helper's), next to the helper's array indexed at run time:
    /// `z[128..192]` is `x`'s tile, `z[192..256]` zero.
    #[sarek::kernel(workgroup_size = [32])]
    pub fn arrays_beside(x: &[f32], z: &mut [f32], which: u32) {
        let mut acc = [CoopMatrix::<f32, 8, C>::zeros(); 2];
        acc[0] = CoopMatrix::load_rows(x, 0, 8);
        pick_tile(x, z, which as usize);
        for j in 0..2 {
            acc[j].store_rows(z, 128 + 64 * j, 8);
        }
    }

    /// `z = 2·x` plus the caller's own matrix kept across the helper call.
    /// (One subgroup of 32 on NVIDIA: the helper's calls store and reload the tile.)
    #[sarek::kernel(workgroup_size = [32])]
    pub fn beside(x: &[f32], z: &mut [f32]) {
        let t = thread_idx_x();
        let tile = shared::<[f32; 64]>();
        tile[t] = 0.0;
        tile[t + 32] = 0.0;
        block_barrier();
        let mine = CoopMatrix::<f32, 8, C>::load_rows(x, 0, 8);
        add_through(tile, x);
        add_through(tile, x);
        block_barrier();
        z[t] = tile[t];
        z[t + 32] = tile[t + 32];
        block_barrier();
        mine.store_rows(z, 64, 8);
    }
}

fn inputs(n: usize) -> (Vec<f32>, Vec<f32>) {
    // Small integers and halves: every product and sum is exact in f32.
    let x = (0..n * n)
        .map(|i| ((i * 7 % 11) as f32 - 5.0) * 0.5)
        .collect();
    let y = (0..n * n)
        .map(|i| ((i * 5 % 13) as f32 - 6.0) * 0.25)
        .collect();
    (x, y)
}

fn reference(x: &[f32], y: &[f32], n: usize) -> Vec<f32> {
    let mut z = vec![0.0f32; n * n];
    for r in 0..n {
        for c in 0..n {
            z[r * n + c] = (0..n).map(|k| x[r * n + k] * y[k * n + c]).sum();
        }
    }
    z
}

/// `tiled` on `dev`, or `None` where the device has no cooperative matrices.
fn tiled_on(dev: &Device, n: usize) -> Option<Vec<f32>> {
    let (x, y) = inputs(n);
    let xb = dev.upload(&x).unwrap();
    let yb = dev.upload(&y).unwrap();
    let mut zb = dev.zeros::<f32>(n * n).unwrap();
    let groups = (n / 16) * (n / 16);
    match library::tiled.launch(dev, Grid::groups(groups), &xb, &yb, &mut zb, n as u32) {
        Ok(_) => Some(zb.read().unwrap()),
        Err(e @ sarek::Error::MissingFeature { .. }) => {
            assert!(
                !dev.is_cpu(),
                "the CPU backend emulates cooperative matrices"
            );
            assert!(
                e.to_string().contains("EXPERIMENTAL_COOPERATIVE_MATRIX"),
                "{e}"
            );
            None
        }
        Err(e) => panic!("{e}"),
    }
}

#[backends]
fn a_helper_multiplies_tiles_with_its_own_matrices(dev: Device) {
    let n = 48;
    let (x, y) = inputs(n);
    if let Some(z) = tiled_on(&dev, n) {
        assert_eq!(z, reference(&x, &y, n));
    }
    // The emulation with several subgroup sizes (a matrix belongs to a subgroup).
    let cpu = Device::cpu();
    for size in [8, 32] {
        assert_eq!(cpu.set_subgroup_size(size), size);
        assert_eq!(
            tiled_on(&cpu, n).unwrap(),
            reference(&x, &y, n),
            "subgroup size {size}"
        );
    }
}

#[backends]
fn a_callers_matrix_survives_a_helper_with_matrices(dev: Device) {
    // x: an 8×8 matrix, then the 8×8 identity.
    let mut x: Vec<f32> = (0..64).map(|i| (i % 9) as f32 - 4.0).collect();
    x.extend((0..64).map(|i| if i / 8 == i % 8 { 1.0 } else { 0.0 }));
    let mut want: Vec<f32> = x[..64].iter().map(|v| 2.0 * v).collect();
    want.extend_from_slice(&x[..64]);
    let xb = dev.upload(&x).unwrap();
    let mut zb = dev.zeros::<f32>(128).unwrap();
    match library::beside.launch(&dev, Grid::groups(1), &xb, &mut zb) {
        Ok(_) => assert_eq!(zb.read().unwrap(), want),
        Err(sarek::Error::MissingFeature { .. }) if !dev.is_cpu() => {}
        Err(e) => panic!("{e}"),
    }
}

/// The errors `compile` reports for the kernel `name` of `source` (a module's items).
fn errors(source: &str, name: &str) -> String {
    let file = syn::parse_file(source).unwrap();
    let module: Vec<syn::Item> = file
        .items
        .iter()
        .filter(|i| !matches!(i, syn::Item::Fn(f) if f.sig.ident == name))
        .cloned()
        .collect();
    let f = file
        .items
        .iter()
        .find_map(|i| match i {
            syn::Item::Fn(f) if f.sig.ident == name => Some(f.clone()),
            _ => None,
        })
        .unwrap();
    let attr = attr::parse(proc_macro2::TokenStream::new()).unwrap();
    let lowered = match lower_kernel(&attr, &f, &module) {
        Ok(l) => l,
        Err(e) => return e.to_string(),
    };
    match sarek_codegen::compile(&lowered.kernel) {
        Ok(_) => String::new(),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_helper_with_matrices_called_under_divergence_is_refused_at_the_call() {
    let text = errors(
        "fn tile(x: &[f32], z: &mut [f32]) {
             let a = CoopMatrix::<f32, 16, C>::load_rows(x, 0, 16);
             a.store_rows(z, 0, 16);
         }
         fn k(x: &[f32], z: &mut [f32]) {
             if x[thread_idx_x()] > 0.0 { tile(x, z); }
         }",
        "k",
    );
    assert!(
        text.contains("`tile` runs `CoopMatrix::load_rows()`, a cooperative-matrix operation")
            && text.contains("reached from the divergent call of `tile` above"),
        "{text}"
    );
}

#[test]
fn a_matrix_is_neither_passed_to_nor_returned_from_a_helper() {
    for source in [
        "fn store(m: CoopMatrix<f32, 16, C>, z: &mut [f32]) { m.store_rows(z, 0, 16); }
         fn k(z: &mut [f32]) { let m = CoopMatrix::<f32, 16, C>::zeros(); store(m, z); }",
        "fn zero() -> CoopMatrix<f32, 16, C> { CoopMatrix::<f32, 16, C>::zeros() }
         fn k(z: &mut [f32]) { zero(); }",
    ] {
        let text = errors(source, "k");
        assert!(
            text.contains("cannot be passed to or returned from a helper")
                && text.contains("load, multiply-add and store the matrices inside the helper"),
            "{text}"
        );
    }
}

/// A helper's array of matrices beside the caller's: each keeps its own elements (the CPU
/// backend; lavapipe refuses with `MissingFeature`), and the WGSL declares the helper's array
/// and the caller's split elements apart.
#[backends]
fn a_helpers_array_of_matrices_beside_the_callers(dev: Device) {
    let wgsl = library::arrays_beside::WGSL;
    assert!(wgsl.contains("array<coop_mat8x8<f32, C>, 2>"), "{wgsl}");
    let x: Vec<f32> = (0..64).map(|i| i as f32 + 1.0).collect();
    // Index 9 of 2 names the last (checks off; with checks it is reported, as in
    // `coop_matrix.rs`).
    dev.set_checks(false);
    for which in [0u32, 1, 9] {
        let xb = dev.upload(&x).unwrap();
        let mut zb = dev.zeros::<f32>(256).unwrap();
        let launched = library::arrays_beside.launch(&dev, Grid::groups(1), &xb, &mut zb, which);
        match launched {
            Ok(_) => {}
            Err(sarek::Error::MissingFeature { .. }) if !dev.is_cpu() => continue,
            Err(e) => panic!("{e}"),
        }
        let z = zb.read().unwrap();
        let picked = if which == 0 { vec![0.0; 64] } else { x.clone() };
        assert_eq!(z[..64], vec![0.0; 64][..], "which {which}");
        assert_eq!(z[64..128], picked[..], "which {which}");
        assert_eq!(z[128..192], x[..], "which {which}");
        assert_eq!(z[192..], vec![0.0; 64][..], "which {which}");
    }
}
