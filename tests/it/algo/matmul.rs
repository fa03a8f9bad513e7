//! The library's matrix products (`sarek::algo::matmul`): `C = alpha · A · B + beta · C
//! (+ bias)` of `f32` and `f16`, every layout of each operand, batches with packed and
//! explicit strides, shapes that are and are not multiples of the kernels' blocks, against a
//! host reference in `f64`, on every backend (the GPU, the CPU backend and the checked CPU
//! backend), the cooperative kernel on the CPU backend (which emulates its matrices) and on a
//! GPU that has them.
//!
//! Tolerances, relative to the sum of the magnitudes of an element's terms
//! (`|alpha| Σ |a b| + |beta c| + |bias|`): `f32` within `4 (k + 2) · 2^-24` of it (the device
//! sums in `f32` in an order of its own); `f16` within `2^-10` of it plus `4 (k + 2) · 2^-24`
//! (operands are exact halves, sums in `f32`, the result rounded once to a half).

use proptest::prelude::*;
use sarek::algo::matmul::{cooperative, kernels, matmul, Engine, Layout, Matmul};
use sarek::{f16, Device, Error};

use crate::common::{self, backends};
use crate::differential::config;

/// One product's inputs: operands and the old `C` as host `f32`s (exact halves for `f16`).
#[derive(Clone, Debug)]
struct Case {
    m: usize,
    n: usize,
    k: usize,
    count: usize,
    layouts: [Layout; 3],
    alpha: f32,
    beta: f32,
    bias: Option<Vec<f32>>,
    a: Vec<f32>,
    b: Vec<f32>,
    c: Vec<f32>,
}

/// `n` values in `[-1, 1)` from `seed`, rounded to halves when `half`.
fn values(seed: u32, n: usize, half: bool) -> Vec<f32> {
    common::random_u32(seed, n)
        .iter()
        .map(|&r| {
            let v = (r >> 8) as f32 / (1 << 23) as f32 - 1.0;
            if half {
                f16::from_f32(v).to_f32()
            } else {
                v
            }
        })
        .collect()
}

impl Case {
    #[allow(clippy::too_many_arguments)]
    fn new(
        seed: u32,
        (m, n, k): (usize, usize, usize),
        count: usize,
        layouts: [Layout; 3],
        alpha: f32,
        beta: f32,
        bias: bool,
        half: bool,
    ) -> Case {
        Case {
            m,
            n,
            k,
            count,
            layouts,
            alpha,
            beta,
            bias: bias.then(|| values(seed + 3, n, half)),
            a: values(seed, count * m * k, half),
            b: values(seed + 1, count * k * n, half),
            c: values(seed + 2, count * m * n, half),
        }
    }

    fn product(&self) -> Matmul {
        Matmul::new(self.m, self.n, self.k)
            .a_layout(self.layouts[0])
            .b_layout(self.layouts[1])
            .c_layout(self.layouts[2])
            .alpha(self.alpha)
            .beta(self.beta)
            .batch(self.count)
    }

    /// The index of element `(r, c)` of a `rows`×`cols` matrix in `layout`.
    fn at(layout: Layout, rows: usize, cols: usize, r: usize, c: usize) -> usize {
        match layout {
            Layout::RowMajor => r * cols + c,
            Layout::ColumnMajor => c * rows + r,
        }
    }

    /// The reference `C` (in `C`'s layout) and each element's magnitude of terms.
    fn reference(&self) -> (Vec<f64>, Vec<f64>) {
        let (m, n, k) = (self.m, self.n, self.k);
        let mut want = vec![0.0; self.c.len()];
        let mut mag = vec![0.0; self.c.len()];
        for z in 0..self.count {
            let (a, b) = (&self.a[z * m * k..], &self.b[z * k * n..]);
            for r in 0..m {
                for col in 0..n {
                    let (mut s, mut sm) = (0.0f64, 0.0f64);
                    for p in 0..k {
                        let x = a[Self::at(self.layouts[0], m, k, r, p)] as f64;
                        let y = b[Self::at(self.layouts[1], k, n, p, col)] as f64;
                        s += x * y;
                        sm += (x * y).abs();
                    }
                    let i = z * m * n + Self::at(self.layouts[2], m, n, r, col);
                    let mut v = self.alpha as f64 * s;
                    let mut vm = (self.alpha as f64 * sm).abs();
                    if self.beta != 0.0 {
                        v += self.beta as f64 * self.c[i] as f64;
                        vm += (self.beta as f64 * self.c[i] as f64).abs();
                    }
                    if let Some(bias) = &self.bias {
                        v += bias[col] as f64;
                        vm += (bias[col] as f64).abs();
                    }
                    want[i] = v;
                    mag[i] = vm;
                }
            }
        }
        (want, mag)
    }

    /// Asserts `got` (in `C`'s layout) against the reference.
    fn check(&self, got: &[f32], half: bool, what: &str) {
        let (want, mag) = self.reference();
        assert_eq!(got.len(), want.len(), "{what}: length");
        let sum_tol = 4.0 * (self.k as f64 + 2.0) * f64::powi(2.0, -24);
        for (i, (&g, (&w, &mg))) in got.iter().zip(want.iter().zip(&mag)).enumerate() {
            let tol = mg * (sum_tol + if half { f64::powi(2.0, -10) } else { 0.0 }) + 1e-30;
            assert!(
                (g as f64 - w).abs() <= tol,
                "{what}: element {i} of {:?}: got {g}, want {w} (tolerance {tol})",
                self
            );
        }
    }

    /// Runs the case in `f32` on `dev` with `engine`, through `run` and through `enqueue`.
    fn run_f32(&self, dev: &Device, engine: Engine, what: &str) {
        let a = dev.upload(&self.a).unwrap();
        let b = dev.upload(&self.b).unwrap();
        let mut c = dev.upload(&self.c).unwrap();
        let p = self.product().engine(engine);
        match &self.bias {
            Some(bias) => {
                let bias = dev.upload(bias).unwrap();
                p.run_with_bias(&a, &b, &bias, &mut c).unwrap();
            }
            None => {
                let mut batch = dev.batch();
                p.enqueue(&mut batch, &a, &b, &mut c).unwrap();
                batch.submit().unwrap();
            }
        }
        self.check(&c.read().unwrap(), false, what);
    }

    /// Runs the case in `f16` on `dev` with `engine`.
    fn run_f16(&self, dev: &Device, engine: Engine, what: &str) {
        let h = |v: &[f32]| v.iter().map(|&x| f16::from_f32(x)).collect::<Vec<_>>();
        let a = dev.upload(&h(&self.a)).unwrap();
        let b = dev.upload(&h(&self.b)).unwrap();
        let mut c = dev.upload(&h(&self.c)).unwrap();
        let p = self.product().engine(engine);
        match &self.bias {
            Some(bias) => {
                let bias = dev.upload(&h(bias)).unwrap();
                let mut batch = dev.batch();
                p.enqueue_with_bias(&mut batch, &a, &b, &bias, &mut c)
                    .unwrap();
                batch.submit().unwrap();
            }
            None => {
                p.run(&a, &b, &mut c).unwrap();
            }
        }
        let got: Vec<f32> = c.read().unwrap().iter().map(|x| x.to_f32()).collect();
        self.check(&got, true, what);
    }
}

/// Whether `dev` runs `f16` kernels.
fn has_f16(dev: &Device) -> bool {
    dev.features().contains(sarek::wgpu::Features::SHADER_F16)
}

/// The engines that run `f16` on `dev`: the tiled kernel, and the cooperative one on the CPU
/// backend (emulated) and on a GPU that has it.
fn half_engines(dev: &Device) -> Vec<Engine> {
    let mut engines = vec![Engine::Tiled];
    if dev.is_cpu() || cooperative(dev) {
        engines.push(Engine::Cooperative);
    }
    engines
}

const LAYOUTS: [Layout; 2] = [Layout::RowMajor, Layout::ColumnMajor];

fn layouts() -> impl Strategy<Value = [Layout; 3]> {
    [
        prop::sample::select(&LAYOUTS[..]),
        prop::sample::select(&LAYOUTS[..]),
        prop::sample::select(&LAYOUTS[..]),
    ]
}

/// Shapes from one element to past the tiled kernels' 64×64 and 128×128 blocks, `k` past
/// their slices.
fn shapes() -> impl Strategy<Value = (usize, usize, usize)> {
    prop_oneof![
        (1usize..5, 1usize..5, 1usize..5),
        (1usize..70, 1usize..70, 1usize..40),
        // `n` a multiple of 4: the word and `Vec4` kernels, on a GPU.
        (
            1usize..140,
            (1usize..36).prop_map(|q| 4 * q),
            (1usize..12).prop_map(|q| 4 * q)
        ),
    ]
}

proptest! {
    #![proptest_config(config(8))]

    /// Random shapes, layouts, scalars, bias and batch counts, `f32` and `f16`, every
    /// engine, against the host.
    #[test]
    fn products_match_the_host(
        shape in shapes(),
        count in 1usize..4,
        layouts in layouts(),
        alpha in prop::sample::select(&[1.0f32, -0.5, 2.0][..]),
        beta in prop::sample::select(&[0.0f32, 1.0, -0.75][..]),
        bias in any::<bool>(),
        seed in 1u32..1_000_000,
    ) {
        for (name, dev) in crate::differential::backends() {
            let case = Case::new(seed, shape, count, layouts, alpha, beta, bias, false);
            case.run_f32(dev, Engine::Auto, &format!("f32 on {name}"));
            if has_f16(dev) {
                let case = Case::new(seed, shape, count, layouts, alpha, beta, bias, true);
                for engine in half_engines(dev) {
                    case.run_f16(dev, engine, &format!("f16 {engine:?} on {name}"));
                }
            }
        }
    }
}

/// The named shapes (one element; odd sizes; one whole block; one past it with a batch of 3),
/// every layout of `A` and `B`, each with `C` in the other layout half the time, `f32` and
/// `f16` on every engine.
#[backends]
fn named_shapes_in_every_layout(dev: &Device) {
    let shapes = [
        ((1, 1, 1), 1),
        ((17, 33, 5), 1),
        ((64, 64, 64), 1),
        ((65, 63, 67), 3),
    ];
    let mut seed = 11;
    for (shape, count) in shapes {
        for la in LAYOUTS {
            for lb in LAYOUTS {
                let lc = if seed % 2 == 0 { la } else { lb };
                seed += 1;
                let layouts = [la, lb, lc];
                let what = format!("{shape:?}×{count} {layouts:?}");
                let case = Case::new(seed, shape, count, layouts, 1.5, 0.5, seed % 3 == 0, false);
                case.run_f32(dev, Engine::Auto, &format!("f32 {what}"));
                if has_f16(dev) {
                    let case = Case::new(seed, shape, count, layouts, 1.5, 0.5, true, true);
                    for engine in half_engines(dev) {
                        case.run_f16(dev, engine, &format!("f16 {engine:?} {what}"));
                    }
                }
            }
        }
    }
}

/// The cooperative kernel past one 128×128 block in `m` and `n` and past several slices of
/// 32 along `k`, with every edge partial.
#[backends]
fn cooperative_blocks_with_partial_edges(dev: &Device) {
    if !half_engines(dev).contains(&Engine::Cooperative) {
        eprintln!(
            "{}: no cooperative matrices, the tiled kernel is tested",
            dev.name()
        );
        return;
    }
    let layouts = [Layout::ColumnMajor, Layout::RowMajor, Layout::RowMajor];
    let case = Case::new(5, (130, 129, 70), 1, layouts, 1.0, 0.0, true, true);
    case.run_f16(dev, Engine::Cooperative, "f16 cooperative 130×129×70");
}

/// The cooperative kernel on words of four halves (what `Engine::Cooperative` runs on a GPU
/// for row-major operands with `k` and `n` multiples of 4), launched directly with buffers of
/// `F16Vec4`: edges in every dimension, a batch, `alpha`, `beta` and the bias.
#[backends]
fn cooperative_words_with_partial_edges(dev: &Device) {
    if !half_engines(dev).contains(&Engine::Cooperative) {
        eprintln!(
            "{}: no cooperative matrices, the tiled kernel is tested",
            dev.name()
        );
        return;
    }
    let (m, n, k, count) = (130, 132, 68, 2);
    let layouts = [Layout::RowMajor; 3];
    let case = Case::new(9, (m, n, k), count, layouts, -1.25, 0.5, true, true);
    let words = |v: &[f32]| {
        let h: Vec<f16> = v.iter().map(|&x| f16::from_f32(x)).collect();
        bytemuck::cast_slice::<f16, sarek::F16Vec4>(&h).to_vec()
    };
    let a = dev.upload(&words(&case.a)).unwrap();
    let b = dev.upload(&words(&case.b)).unwrap();
    let h = |v: &[f32]| v.iter().map(|&x| f16::from_f32(x)).collect::<Vec<_>>();
    let bias = dev.upload(&h(case.bias.as_ref().unwrap())).unwrap();
    let mut c = dev.upload(&h(&case.c)).unwrap();
    let grid = sarek::Grid::groups([n.div_ceil(128) as u32, m.div_ceil(128) as u32, count as u32]);
    let (m, n, k) = (m as u32, n as u32, k as u32);
    kernels::gemm_coop_f16x4
        .launch(
            dev,
            grid,
            &a,
            &b,
            &bias,
            &mut c,
            m,
            n,
            k,
            k,
            1,
            n,
            1,
            n,
            1,
            m * k,
            k * n,
            m * n,
            -1.25,
            0.5,
            1,
        )
        .unwrap();
    let got: Vec<f32> = c.read().unwrap().iter().map(|x| x.to_f32()).collect();
    case.check(&got, true, "f16 words 130×132×68×2");
}

/// The kernels that pad a product's operands into whole blocks and copy its corner back: a
/// column-major batch of two 3×5 matrices into row-major 4×8 ones, zero outside, and back
/// into row-major matrices at their strides.
#[backends]
fn padding_round_trips(dev: &Device) {
    let (rows, cols, count) = (3usize, 5usize, 2usize);
    let (rows_p, cols_p) = (4usize, 8usize);
    // Column-major: element (r, c) of matrix z at z * 15 + c * 3 + r.
    let src: Vec<f16> = (0..count * rows * cols)
        .map(|i| f16::from_f32(i as f32 + 1.0))
        .collect();
    let src_buf = dev.upload(&src).unwrap();
    // A thread a word of four halves of the padded rows.
    let junk = f16::from_f32(-9.0);
    let mut padded = dev
        .upload(&vec![
            sarek::F16Vec4::splat(junk);
            count * rows_p * cols_p / 4
        ])
        .unwrap();
    let grid = sarek::Grid::cover_3d(cols_p / 4, rows_p, count);
    let (r, c, rp, cp) = (rows as u32, cols as u32, rows_p as u32, cols_p as u32);
    let launched =
        kernels::pad_f16.launch(dev, grid, &src_buf, &mut padded, r, c, 1, r, r * c, rp, cp);
    if common::unless_no_f16(dev, launched).is_none() {
        return;
    }
    let got: Vec<f16> = padded
        .read()
        .unwrap()
        .iter()
        .flat_map(|w| w.to_array())
        .collect();
    for z in 0..count {
        for i in 0..rows_p {
            for j in 0..cols_p {
                let want = if i < rows && j < cols {
                    src[z * 15 + j * 3 + i]
                } else {
                    f16::ZERO
                };
                assert_eq!(got[(z * rows_p + i) * cols_p + j], want, "({z}, {i}, {j})");
            }
        }
    }
    let mut back = dev.zeros::<f16>(count * rows * cols).unwrap();
    kernels::unpad_f16
        .launch(dev, grid, &padded, &mut back, r, c, c, 1, r * c, rp, cp)
        .unwrap();
    let back = back.read().unwrap();
    for z in 0..count {
        for i in 0..rows {
            for j in 0..cols {
                assert_eq!(back[z * 15 + i * cols + j], src[z * 15 + j * 3 + i]);
            }
        }
    }
}

/// The whole-block `f16` kernel (what the cooperative engine runs for row-major words with `m`
/// and `n` multiples of 128 and `k` of 64), launched directly: two 128×128 blocks along `m`,
/// three slices of 64 along `k` (so both register sets and the clamped reloads of the last
/// slices), a batch, `alpha`, `beta` and the bias; `C` as words of four halves.
#[backends]
fn cooperative_whole_blocks(dev: &Device) {
    if !half_engines(dev).contains(&Engine::Cooperative) {
        eprintln!(
            "{}: no cooperative matrices, the tiled kernel is tested",
            dev.name()
        );
        return;
    }
    let (m, n, k, count) = (256, 128, 192, 2);
    let layouts = [Layout::RowMajor; 3];
    let case = Case::new(11, (m, n, k), count, layouts, 0.75, -0.5, true, true);
    let words = |v: &[f32]| {
        let h: Vec<f16> = v.iter().map(|&x| f16::from_f32(x)).collect();
        bytemuck::cast_slice::<f16, sarek::F16Vec4>(&h).to_vec()
    };
    let a = dev.upload(&words(&case.a)).unwrap();
    let b = dev.upload(&words(&case.b)).unwrap();
    let h = |v: &[f32]| v.iter().map(|&x| f16::from_f32(x)).collect::<Vec<_>>();
    let bias = dev.upload(&h(case.bias.as_ref().unwrap())).unwrap();
    let mut c = dev.upload(&words(&case.c)).unwrap();
    let grid = sarek::Grid::groups([(n / 128) as u32, (m / 128) as u32, count as u32]);
    let (m, n, k) = (m as u32, n as u32, k as u32);
    kernels::gemm_coop_f16x4_blocks
        .launch(
            dev,
            grid,
            &a,
            &b,
            &bias,
            &mut c,
            m,
            n,
            k,
            k,
            1,
            n,
            1,
            n,
            1,
            m * k,
            k * n,
            m * n,
            0.75,
            -0.5,
            1,
        )
        .unwrap();
    let got: Vec<f32> = c
        .read()
        .unwrap()
        .iter()
        .flat_map(|w| w.to_array())
        .map(|x| x.to_f32())
        .collect();
    case.check(&got, true, "f16 whole blocks 256×128×192×2");
}

/// The register-blocked `f32` kernel (what the tiled engine runs on a GPU for row-major `B` and
/// `C` with `n` a multiple of 4), launched directly with rows of `Vec4`: 128×128 blocks with
/// partial edges, `k` not a multiple of its slices, `A` column-major, a batch, `alpha`, `beta`
/// and the bias.
#[backends]
fn register_blocks_with_partial_edges(dev: &Device) {
    let need = kernels::gemm_rb_f32::ABI.workgroup_memory;
    if dev.limits().max_compute_workgroup_storage_size < need {
        eprintln!("{}: less than {need} bytes of workgroup memory", dev.name());
        return;
    }
    let (m, n, k, count) = (130, 136, 21, 2);
    let layouts = [Layout::ColumnMajor, Layout::RowMajor, Layout::RowMajor];
    let case = Case::new(21, (m, n, k), count, layouts, 0.75, -0.5, true, false);
    let vecs = |v: &[f32]| bytemuck::cast_slice::<f32, sarek::Vec4>(v).to_vec();
    let a = dev.upload(&case.a).unwrap();
    let b = dev.upload(&vecs(&case.b)).unwrap();
    let bias = dev.upload(&vecs(case.bias.as_ref().unwrap())).unwrap();
    let mut c = dev.upload(&vecs(&case.c)).unwrap();
    let grid = sarek::Grid::groups([n.div_ceil(128) as u32, m.div_ceil(128) as u32, count as u32]);
    let (m, n, k) = (m as u32, n as u32, k as u32);
    kernels::gemm_rb_f32
        .launch(
            dev,
            grid,
            &a,
            &b,
            &bias,
            &mut c,
            m,
            n,
            k,
            1,
            m,
            n,
            1,
            n,
            1,
            m * k,
            k * n,
            m * n,
            0.75,
            -0.5,
            1,
        )
        .unwrap();
    let got: Vec<f32> = bytemuck::cast_slice(&c.read().unwrap()).to_vec();
    case.check(&got, false, "f32 register blocks 130×136×21×2");
}

/// `k = 0`: `C = beta · C + bias`, with `A` and `B` empty.
#[backends]
fn an_empty_inner_dimension_scales_c(dev: &Device) {
    let a = dev.zeros::<f32>(0).unwrap();
    let b = dev.zeros::<f32>(0).unwrap();
    let bias = dev.upload(&[1.0f32, 2.0, 3.0]).unwrap();
    let mut c = dev.upload(&[2.0f32, 4.0, 6.0, 8.0, 10.0, 12.0]).unwrap();
    Matmul::new(2, 3, 0)
        .beta(0.5)
        .run_with_bias(&a, &b, &bias, &mut c)
        .unwrap();
    assert_eq!(c.read().unwrap(), [2.0, 4.0, 6.0, 5.0, 7.0, 9.0]);
    // beta = 0 and no bias: zeros.
    assert_eq!(
        matmul(dev, &a, &b, 2, 3, 0).unwrap().read().unwrap(),
        [0.0; 6]
    );
}

/// No rows, no columns or no products: nothing is written, and nothing fails.
#[backends]
fn empty_products_write_nothing(dev: &Device) {
    let a = dev.upload(&[1.0f32; 6]).unwrap();
    let b = dev.zeros::<f32>(0).unwrap();
    let mut c = dev.zeros::<f32>(0).unwrap();
    Matmul::new(2, 0, 3).run(&a, &b, &mut c).unwrap();
    Matmul::new(0, 0, 0).run(&b, &b, &mut c).unwrap();
    let mut c = dev.upload(&[7.0f32]).unwrap();
    Matmul::new(1, 1, 1)
        .batch_strides(0, 1, 1, 1)
        .run(&b, &b, &mut c)
        .unwrap();
    assert_eq!(c.read().unwrap(), [7.0]);
    assert!(matmul(dev, &b, &b, 0, 5, 0).unwrap().is_empty());
}

/// With `beta = 0` the old `C` is not read: NaNs there do not survive.
#[backends]
fn beta_zero_ignores_nans_in_c(dev: &Device) {
    let a = dev.upload(&[1.0f32, 2.0]).unwrap();
    let b = dev.upload(&[3.0f32, 4.0]).unwrap();
    let mut c = dev.upload(&[f32::NAN; 4]).unwrap();
    Matmul::new(2, 2, 1).run(&a, &b, &mut c).unwrap();
    assert_eq!(c.read().unwrap(), [3.0, 4.0, 6.0, 8.0]);
}

/// Strides of a batch: a stride of 0 shares one weight between the products, and a stride
/// past the matrix skips elements between them.
#[backends]
fn batch_strides_share_and_skip(dev: &Device) {
    // Three 1×2 inputs, 3 elements apart (the third of each unused), one 2×2 weight.
    let x = dev
        .upload(&[1.0f32, 2.0, 99.0, 3.0, 4.0, 99.0, 5.0, 6.0])
        .unwrap();
    let w = dev.upload(&[1.0f32, 0.0, 1.0, 1.0]).unwrap();
    let mut y = dev.zeros::<f32>(6).unwrap();
    Matmul::new(1, 2, 2)
        .batch_strides(3, 3, 0, 2)
        .run(&x, &w, &mut y)
        .unwrap();
    assert_eq!(y.read().unwrap(), [3.0, 2.0, 7.0, 4.0, 11.0, 6.0]);
}

/// Buffers that do not fit the shape, a bias of the wrong length, and cooperative matrices
/// for `f32` are errors, not panics, and nothing runs.
#[backends]
fn mismatched_buffers_are_errors(dev: &Device) {
    let a = dev.upload(&[1.0f32; 6]).unwrap();
    let b = dev.upload(&[1.0f32; 6]).unwrap();
    let mut c = dev.upload(&[5.0f32; 4]).unwrap();
    let bad = |r: sarek::Result<sarek::Launch>, needle: &str| match r {
        Err(Error::BadArguments { message, .. }) => {
            assert!(message.contains(needle), "{message}")
        }
        Err(e) => panic!("another error: {e}"),
        Ok(_) => panic!("accepted, wanted an error saying {needle:?}"),
    };
    // A 2×3 by 3×2 product fits; 2×2 by 2×2 does not (A and B hold 6, not 4).
    Matmul::new(2, 2, 3).run(&a, &b, &mut c).unwrap();
    bad(Matmul::new(2, 2, 2).run(&a, &b, &mut c), "exactly 4");
    bad(
        Matmul::new(2, 2, 3).batch(2).run(&a, &b, &mut c),
        "exactly 12",
    );
    let b4 = dev.upload(&[1.0f32; 4]).unwrap();
    bad(
        Matmul::new(3, 2, 2).run(&a, &b4, &mut c),
        "C of 1 product(s) of 3×2",
    );
    let bias = dev.upload(&[1.0f32; 3]).unwrap();
    bad(
        Matmul::new(2, 2, 3).run_with_bias(&a, &b, &bias, &mut c),
        "n = 2",
    );
    bad(
        Matmul::new(2, 2, 3)
            .batch_strides(2, 0, 0, 4)
            .run(&a, &b, &mut c),
        "at least 8",
    );
    bad(
        Matmul::new(2, 2, 3)
            .engine(Engine::Cooperative)
            .run(&a, &b, &mut c),
        "`f16` products only",
    );
    bad(Matmul::new(1 << 17, 1 << 16, 1).run(&a, &b, &mut c), "2^32");
    assert_eq!(c.read().unwrap(), [3.0; 4]);
}

/// The plain call: row-major operands, a new buffer.
#[backends]
fn the_plain_call_multiplies_row_major_matrices(dev: &Device) {
    let a = dev.upload(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    let b = dev.upload(&[7.0f32, 8.0, 9.0, 10.0, 11.0, 12.0]).unwrap();
    let c = sarek::algo::matmul(dev, &a, &b, 2, 2, 3).unwrap();
    assert_eq!(c.read().unwrap(), [58.0, 64.0, 139.0, 154.0]);
}

/// On a GPU that `cooperative` turns down (lavapipe: no cooperative matrices, subgroups of
/// 8), asking for them is an error, not a wrong result.
#[crate::common::gpu_only]
fn cooperative_matrices_where_there_are_none_are_an_error(dev: &Device) {
    if cooperative(dev) || !has_f16(dev) {
        return;
    }
    let h = f16::from_f32;
    let a = dev.upload(&[h(1.0); 4]).unwrap();
    let mut c = dev.upload(&[h(5.0); 4]).unwrap();
    let err = Matmul::new(2, 2, 2)
        .engine(Engine::Cooperative)
        .run(&a, &a, &mut c)
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::BadArguments { .. } | Error::MissingFeature { .. }
        ),
        "{err}"
    );
    assert_eq!(c.read().unwrap(), [h(5.0); 4]);
}

/// The whole-block kernel's workgroup memory is what the engine's check documents (23,040
/// bytes: its tiles of `A` and `B`, and an accumulator a subgroup for the epilogue).
#[test]
fn the_whole_block_kernel_fits_its_documented_memory() {
    let memory = kernels::gemm_coop_f16x4_blocks::ABI.workgroup_memory;
    assert_eq!(memory, 23_040);
}
