//! Cooperative matrices (`sarek::gpu::CoopMatrix`): products of 16×16 and 8×8 tiles from
//! buffers and workgroup memory, row- and column-major, against a host reference. lavapipe
//! has no cooperative matrices, so on it the launch must fail with `MissingFeature` naming
//! what the device offers; the CPU backend emulates them (with several subgroup sizes, since
//! a matrix belongs to a subgroup); the H200 runs them for real (`examples/f16_matmul.rs`,
//! the `sarek-bench` matrix products).

use crate::common::{backends, cpu_only, gpu_only};

use sarek::coop::{A, B, C};
use sarek::f16;
use sarek::prelude::*;

/// `z = x * y` for `n`×`n` row-major matrices (`n` a multiple of 16): one 16×16 tile of `z`
/// per workgroup, summed over `k` in steps of 16.
#[sarek::kernel(workgroup_size = [32])]
fn tile_product(x: &[f32], y: &[f32], z: &mut [f32], n: u32) {
    let n = n as usize;
    let tiles = n / 16;
    let b = block_idx_x();
    let row = b / tiles * 16;
    let col = b % tiles * 16;
    let mut acc = CoopMatrix::<f32, 16, C>::zeros();
    let mut k = 0;
    while k < n {
        let a = CoopMatrix::<f32, 16, A>::load_rows(x, row * n + k, n);
        let bm = CoopMatrix::<f32, 16, B>::load_rows(y, k * n + col, n);
        acc = a.multiply_add(bm, acc);
        k += 16;
    }
    acc.store_rows(z, row * n + col, n);
}

/// One 8×8 product `z = xᵀ·y + z` through workgroup memory: `x` is staged in a workgroup
/// array and loaded column-major (so the matrix is `x` transposed), the result stored
/// column-major.
#[sarek::kernel(workgroup_size = [64])]
fn staged_product(x: &[f32], y: &[f32], z: &mut [f32]) {
    let t = thread_idx_x();
    let tile = shared::<[f32; 64]>();
    tile[t] = x[t];
    block_barrier();
    let a = CoopMatrix::<f32, 8, A>::load_columns(&tile, 0, 8);
    let bm = CoopMatrix::<f32, 8, B>::load_rows(&y, 0, 8);
    let c: CoopMatrix<f32, 8, C> = CoopMatrix::load_columns(&z, 0, 8);
    let r = a.multiply_add(bm, c);
    r.store_columns(z, 0, 8);
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

/// Runs `tile_product` on `dev`: `Ok(None)` where the device lacks cooperative matrices (the
/// error checked), else the result.
fn product_on(dev: &Device, n: usize) -> Option<Vec<f32>> {
    let (x, y) = inputs(n);
    let xb = dev.upload(&x).unwrap();
    let yb = dev.upload(&y).unwrap();
    let mut zb = dev.zeros::<f32>(n * n).unwrap();
    let groups = (n / 16) * (n / 16);
    match tile_product.launch(dev, Grid::groups(groups), &xb, &yb, &mut zb, n as u32) {
        Ok(_) => Some(zb.read().unwrap()),
        Err(e @ sarek::Error::MissingFeature { .. }) => {
            assert!(
                !dev.is_cpu(),
                "the CPU backend emulates cooperative matrices"
            );
            let text = e.to_string();
            assert!(
                text.contains("`tile_product`")
                    && text
                        .contains("EXPERIMENTAL_COOPERATIVE_MATRIX (16×16×16, f32 A and B, f32 C)")
                    && text.contains("offers"),
                "{text}"
            );
            None
        }
        Err(e) => panic!("{e}"),
    }
}

#[backends]
fn tile_product_matches_the_host(dev: Device) {
    let n = 64;
    if let Some(z) = product_on(&dev, n) {
        let (x, y) = inputs(n);
        assert_eq!(z, reference(&x, &y, n));
    }
}

#[cpu_only]
fn the_cpu_backend_emulates_matrices_with_every_subgroup_size(dev: Device) {
    let n = 48;
    let (x, y) = inputs(n);
    let want = reference(&x, &y, n);
    for size in [4, 8, 32, 64] {
        assert_eq!(dev.set_subgroup_size(size), size);
        assert_eq!(product_on(&dev, n).unwrap(), want, "subgroup size {size}");
    }
}

#[backends]
fn staged_product_through_workgroup_memory(dev: Device) {
    let x: Vec<f32> = (0..64).map(|i| (i % 9) as f32 - 4.0).collect();
    let y: Vec<f32> = (0..64).map(|i| (i % 5) as f32 * 0.5).collect();
    let z0: Vec<f32> = (0..64).map(|i| i as f32).collect();
    let xb = dev.upload(&x).unwrap();
    let yb = dev.upload(&y).unwrap();
    let mut zb = dev.upload(&z0).unwrap();
    match staged_product.launch(&dev, Grid::groups(1), &xb, &yb, &mut zb) {
        Ok(_) => {}
        Err(sarek::Error::MissingFeature { .. }) if !dev.is_cpu() => return,
        Err(e) => panic!("{e}"),
    }
    let z = zb.read().unwrap();
    // a(r, k) = x[k * 8 + r] (column-major); c and the result column-major too.
    for r in 0..8 {
        for c in 0..8 {
            let sum: f32 = (0..8).map(|k| x[k * 8 + r] * y[k * 8 + c]).sum();
            assert_eq!(z[c * 8 + r], sum + z0[c * 8 + r], "({r}, {c})");
        }
    }
}

#[test]
fn the_abi_names_the_shapes() {
    use sarek::abi::{CoopScalar, CoopShape, Feature};
    let needs = &tile_product::ABI.features;
    assert!(needs.contains(&Feature::CooperativeMatrix(CoopShape {
        size: 16,
        ab: Some(CoopScalar::F32),
        c: Some(CoopScalar::F32),
    })));
    assert!(
        tile_product::WGSL.starts_with("// Generated")
            && tile_product::WGSL.contains("enable wgpu_cooperative_matrix;")
    );
}

#[gpu_only]
fn a_device_without_cooperative_matrices_refuses_with_missing_feature() {
    let Some(dev) = crate::extensions::subgroups::bare_device() else {
        return;
    };
    assert!(!dev
        .features()
        .contains(sarek::wgpu::Features::EXPERIMENTAL_COOPERATIVE_MATRIX));
    let (x, y) = inputs(16);
    let xb = dev.upload(&x).unwrap();
    let yb = dev.upload(&y).unwrap();
    let mut zb = dev.zeros::<f32>(256).unwrap();
    match tile_product.launch(&dev, Grid::groups(1), &xb, &yb, &mut zb, 16) {
        Err(e @ sarek::Error::MissingFeature { .. }) => {
            assert!(
                e.to_string().contains("EXPERIMENTAL_COOPERATIVE_MATRIX"),
                "{e}"
            )
        }
        other => panic!("expected MissingFeature, got {other:?}"),
    }
}

/// The tensor-core configuration: `f16` A and B, `f32` accumulators.
#[sarek::kernel(workgroup_size = [32])]
fn half_product(x: &[f16], y: &[f16], z: &mut [f32], n: u32) {
    let n = n as usize;
    let tiles = n / 16;
    let b = block_idx_x();
    let row = b / tiles * 16;
    let col = b % tiles * 16;
    let mut acc = CoopMatrix::<f32, 16, C>::zeros();
    let mut k = 0;
    while k < n {
        let a = CoopMatrix::<f16, 16, A>::load_rows(x, row * n + k, n);
        let bm = CoopMatrix::<f16, 16, B>::load_rows(y, k * n + col, n);
        acc = a.multiply_add(bm, acc);
        k += 16;
    }
    acc.store_rows(z, row * n + col, n);
}

#[backends]
fn an_f16_product_accumulates_in_f32(dev: Device) {
    use sarek::abi::{CoopScalar, CoopShape, Feature};
    assert!(half_product::ABI
        .features
        .contains(&Feature::CooperativeMatrix(CoopShape {
            size: 16,
            ab: Some(CoopScalar::F16),
            c: Some(CoopScalar::F32),
        })));
    let n = 32;
    let (x, y) = inputs(n);
    let want = reference(&x, &y, n);
    let h = |v: &[f32]| v.iter().map(|&f| f16::from_f32(f)).collect::<Vec<_>>();
    let xb = dev.upload(&h(&x)).unwrap();
    let yb = dev.upload(&h(&y)).unwrap();
    let mut zb = dev.zeros::<f32>(n * n).unwrap();
    let grid = Grid::groups((n / 16) * (n / 16));
    match half_product.launch(&dev, grid, &xb, &yb, &mut zb, n as u32) {
        Ok(_) => assert_eq!(zb.read().unwrap(), want),
        Err(sarek::Error::MissingFeature { .. }) if !dev.is_cpu() => {}
        Err(e) => panic!("{e}"),
    }
}

/// `z = x * y` as `tile_product` computes it, written with arrays of matrices: a 16×64 strip
/// of `z` per workgroup as four accumulators, the strip's four tiles of `y` loaded by a `for`
/// loop that the lowering unrolls (so each element becomes a matrix variable of its own).
#[sarek::kernel(workgroup_size = [32])]
fn strip_product(x: &[f32], y: &[f32], z: &mut [f32], n: u32) {
    let n = n as usize;
    let strips = n / 64;
    let b = block_idx_x();
    let row = b / strips * 16;
    let col = b % strips * 64;
    let mut acc = [CoopMatrix::<f32, 16, C>::zeros(); 4];
    let mut k = 0;
    while k < n {
        let a = CoopMatrix::<f32, 16, A>::load_rows(x, row * n + k, n);
        let mut bm = [CoopMatrix::<f32, 16, B>::zeros(); 4];
        for j in 0..4 {
            bm[j] = CoopMatrix::load_rows(y, k * n + col + 16 * j, n);
        }
        for j in 0..4 {
            acc[j] = a.multiply_add(bm[j], acc[j]);
        }
        k += 16;
    }
    for j in 0..4 {
        acc[j].store_rows(z, row * n + col + 16 * j, n);
    }
}

/// The same product with its loops over the tiles as `while` loops, which are never
/// unrolled: the arrays stay arrays indexed at run time (in the WGSL and on the CPU).
#[sarek::kernel(workgroup_size = [32])]
fn strip_product_rolled(x: &[f32], y: &[f32], z: &mut [f32], n: u32) {
    let n = n as usize;
    let strips = n / 64;
    let b = block_idx_x();
    let row = b / strips * 16;
    let col = b % strips * 64;
    let mut acc = [CoopMatrix::<f32, 16, C>::zeros(); 4];
    let mut k = 0;
    while k < n {
        let a = CoopMatrix::<f32, 16, A>::load_rows(x, row * n + k, n);
        let mut bm = [CoopMatrix::<f32, 16, B>::zeros(); 4];
        let mut j = 0;
        while j < 4 {
            bm[j] = CoopMatrix::load_rows(y, k * n + col + 16 * j, n);
            j += 1;
        }
        let mut j = 0;
        while j < 4 {
            acc[j] = a.multiply_add(bm[j], acc[j]);
            j += 1;
        }
        k += 16;
    }
    let mut j = 0;
    while j < 4 {
        acc[j].store_rows(z, row * n + col + 16 * j, n);
        j += 1;
    }
}

/// Stores element `i` of two matrices, the second loaded from `x`: an index past the end
/// names the last element, as an index into a local array does.
#[sarek::kernel(workgroup_size = [32])]
fn element_of_two(x: &[f32], z: &mut [f32], i: u32) {
    let mut m = [CoopMatrix::<f32, 16, C>::zeros(); 2];
    m[1] = CoopMatrix::load_rows(x, 0, 16);
    m[i as usize].store_rows(z, 0, 16);
}

#[backends]
fn arrays_of_matrices_unrolled_or_indexed_at_run_time_give_the_product(dev: Device) {
    let n = 64;
    let (x, y) = inputs(n);
    let want = reference(&x, &y, n);
    let sizes: &[u32] = if dev.is_cpu() { &[8, 32, 64] } else { &[0] };
    for &size in sizes {
        if dev.is_cpu() {
            assert_eq!(dev.set_subgroup_size(size), size);
        }
        let xb = dev.upload(&x).unwrap();
        let yb = dev.upload(&y).unwrap();
        for rolled in [false, true] {
            let mut zb = dev.zeros::<f32>(n * n).unwrap();
            let grid = Grid::groups((n / 16) * (n / 64));
            let launched = match rolled {
                false => strip_product.launch(&dev, grid, &xb, &yb, &mut zb, n as u32),
                true => strip_product_rolled.launch(&dev, grid, &xb, &yb, &mut zb, n as u32),
            };
            match launched {
                Ok(_) => assert_eq!(zb.read().unwrap(), want, "rolled {rolled}, size {size}"),
                Err(sarek::Error::MissingFeature { .. }) if !dev.is_cpu() => {}
                Err(e) => panic!("{e}"),
            }
        }
    }
}

/// The JIT runs both forms (its collectives name array elements), unless the interpreter is
/// asked for.
#[cpu_only]
fn arrays_of_matrices_run_as_machine_code() {
    let want = match std::env::var("SAREK_CPU_ENGINE").as_deref() {
        Ok("interp") => sarek::CpuEngine::Interpreter,
        _ => sarek::CpuEngine::Jit,
    };
    let dev = Device::cpu();
    for source in [strip_product::SOURCE, strip_product_rolled::SOURCE] {
        assert_eq!(
            dev.cpu_engine(source).unwrap(),
            Some(want),
            "{}",
            source.abi().kernel
        );
    }
}

#[test]
fn arrays_of_matrices_print_as_variables_when_unrolled_and_as_arrays_otherwise() {
    let unrolled = strip_product::WGSL;
    assert!(!unrolled.contains("array<coop_mat"), "{unrolled}");
    assert_eq!(
        unrolled.matches("coopMultiplyAdd").count() % 4,
        0,
        "{unrolled}"
    );
    let rolled = strip_product_rolled::WGSL;
    assert!(
        rolled.contains("array<coop_mat16x16<f32, C>, 4>")
            && rolled.contains("array<coop_mat16x16<f32, B>, 4>"),
        "{rolled}"
    );
}

/// An index past the end clamps on the CPU backend, and with checks on it is reported.
#[cpu_only]
fn an_index_past_the_end_of_an_array_of_matrices_clamps_or_is_reported_with_checks() {
    let x: Vec<f32> = (0..256).map(|i| i as f32).collect();
    let run = |checks: bool, i: u32| {
        let dev = Device::cpu();
        dev.set_checks(checks);
        let xb = dev.upload(&x).unwrap();
        let mut zb = dev.zeros::<f32>(256).unwrap();
        element_of_two
            .launch(&dev, Grid::groups(1), &xb, &mut zb, i)
            .and_then(|l| l.wait())
            .map(|_| zb.read().unwrap())
    };
    assert_eq!(run(false, 0).unwrap(), vec![0.0; 256]);
    assert_eq!(run(false, 1).unwrap(), x);
    assert_eq!(run(false, 5).unwrap(), x, "index 5 of 2 names the last");
    let text = run(true, 5).expect_err("reported").to_string();
    assert!(text.contains('5') && text.contains('2'), "{text}");
    assert_eq!(run(true, 1).unwrap(), x);
}

/// A `zeros()` followed by a `continue` before the element's next load: the loop's next trip
/// reads the zero, so the scalarised element keeps its `zeros()` in the WGSL.
#[sarek::kernel(workgroup_size = [32])]
fn zero_then_continue(x: &[f32], z: &mut [f32]) {
    let mut m = [CoopMatrix::<f32, 8, C>::zeros(); 1];
    let mut k = 0;
    while k < 3 {
        m[0].store_rows(z, 64 * k, 8);
        m[0] = CoopMatrix::zeros();
        k += 1;
        if k == 2 {
            continue;
        }
        m[0] = CoopMatrix::load_rows(x, 0, 8);
    }
}

#[cpu_only]
fn a_zero_before_a_continue_is_kept() {
    let wgsl = zero_then_continue::WGSL;
    let main = wgsl.split("fn sarek_main_folded").next().unwrap();
    assert_eq!(
        main.matches("= coop_mat8x8<f32, C>();").count(),
        2,
        "{main}"
    );
    let dev = Device::cpu();
    let x: Vec<f32> = (0..64).map(|i| i as f32 + 1.0).collect();
    let xb = dev.upload(&x).unwrap();
    let mut zb = dev.zeros::<f32>(192).unwrap();
    zero_then_continue
        .launch(&dev, Grid::groups(1), &xb, &mut zb)
        .unwrap();
    let z = zb.read().unwrap();
    assert_eq!(z[..64], vec![0.0; 64][..]);
    assert_eq!(z[64..128], x[..]);
    assert_eq!(z[128..], vec![0.0; 64][..], "the zero of the second trip");
}
