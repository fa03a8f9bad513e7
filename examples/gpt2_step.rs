//! One training step of a small GPT-2 on the device, checked against a host reference: the
//! computation of llm.c's `f32` CUDA trainer, with its kernels written in Sarek.
//!
//! The model is one transformer block (B = 2 sequences of T = 64 tokens, C = 64 channels,
//! NH = 4 heads, a vocabulary of V = 128) with random parameters and tokens from a fixed seed.
//! The step runs as one [`Batch`](sarek::Batch): the forward pass to the loss, the whole
//! backward pass and an AdamW update of every parameter. The library does what it offers:
//!
//! - [`Matmul`] for every product: the linear layers with their bias
//!   (`enqueue_with_bias`, weights read column-major as `x · Wᵀ`), their input and weight
//!   gradients (an operand read column-major is its transpose), the bias gradients (a row of
//!   ones times the output gradient), and attention's `Q · Kᵀ` and `P · V` and their
//!   gradients as batched products, one per sequence and head;
//! - [`rows::enqueue_layer_norm`] and [`LayerNormBackward`] for the three layer norms;
//! - [`rows::enqueue_cross_entropy`] for the loss and [`rows::enqueue_softmax`] for the
//!   probabilities its gradient needs.
//!
//! The rest are the example's own `#[sarek::kernel]`s: the encoder and its backward pass,
//! the permutes between `[B, T, 3, NH, hs]` rows and `[B, NH, T, hs]` heads, the causal
//! softmax and its backward pass, GELU and its gradient, residual adds, the gradient of the
//! cross-entropy and AdamW.
//!
//! The host reference at the end of the file does the same math in `f64` with plain loops.
//! The example runs two steps and checks each against it (the loss, every parameter's
//! gradient, every parameter's AdamW step), then runs the forward pass once more and checks
//! that the loss went down at each step; it prints a table per step and exits with status 1
//! when a check fails.
//!
//! Run it with `cargo run --release --example gpt2_step` (`SAREK_DEVICE=cpu` runs it on the
//! CPU backend).

use sarek::algo::matmul::{Layout, Matmul};
use sarek::algo::rows::{self, LayerNormBackward};
use sarek::prelude::*;
use sarek::Batch;

/// Sequences in the batch.
const B: usize = 2;
/// Tokens per sequence (also the number of positions `wpe` holds).
const T: usize = 64;
/// Channels.
const C: usize = 64;
/// Attention heads.
const NH: usize = 4;
/// Channels per head.
const HS: usize = C / NH;
/// The vocabulary.
const V: usize = 128;
/// Rows of activations: one per token.
const BT: usize = B * T;
/// Layer norm's epsilon, as GPT-2's.
const LN_EPS: f32 = 1e-5;

// AdamW as llm.c's trainer calls it (learning rate, betas, epsilon), with the weight decay
// its GPT-2 runs pass (`-c 0.1`; its default is 0), applied as llm.c applies it: to the
// matrices only, not to biases and layer norms.
const LR: f32 = 3e-4;
const BETA1: f32 = 0.9;
const BETA2: f32 = 0.95;
const ADAM_EPS: f32 = 1e-8;
const WEIGHT_DECAY: f32 = 0.1;

/// Largest error a gradient may have, relative to the largest magnitude in its tensor.
const GRAD_TOLERANCE: f64 = 1e-4;
/// Largest relative error of the loss.
const LOSS_TOLERANCE: f64 = 1e-5;
/// Largest error of a parameter's AdamW step (its new value less its old), relative to the
/// largest step in its tensor. A step is about `lr` = 3e-4, and rounding a parameter near 1 to
/// `f32` alone is 6e-8 of it, 2e-4 of the step.
const STEP_TOLERANCE: f64 = 1e-3;

// ---------------------------------------------------------------------------------------
// The example's kernels: one thread per output element unless said otherwise.
// ---------------------------------------------------------------------------------------

/// The encoder: each token's embedding plus its position's,
/// `out[i, c] = wte[tokens[i], c] + wpe[i % t_len, c]`.
#[sarek::kernel]
pub fn encoder_forward(
    tokens: &[u32],
    wte: &[f32],
    wpe: &[f32],
    t_len: usize,
    c_len: usize,
    out: &mut [f32],
) {
    let idx = global_thread_id();
    if idx < out.len() {
        let i = idx / c_len;
        let c = idx % c_len;
        let t = i % t_len;
        out[idx] = wte[tokens[i] as usize * c_len + c] + wpe[t * c_len + c];
    }
}

/// The encoder's gradient into the token embeddings, added to what `dwte` holds (the
/// classifier's part, since GPT-2 ties the two): thread `(v, c)` sums `dout[i, c]` over the
/// tokens `i` that are `v`. Each sum has one thread, so the result is the same on every run,
/// without atomics; it reads every token, which is cheap for a small batch (llm.c's CUDA
/// trainer buckets the tokens first for large ones).
#[sarek::kernel]
pub fn encoder_backward_wte(dout: &[f32], tokens: &[u32], c_len: usize, dwte: &mut [f32]) {
    let idx = global_thread_id();
    if idx < dwte.len() {
        let v = (idx / c_len) as u32;
        let c = idx % c_len;
        let mut acc = 0.0f32;
        for i in 0..tokens.len() {
            if tokens[i] == v {
                acc += dout[i * c_len + c];
            }
        }
        dwte[idx] += acc;
    }
}

/// The encoder's gradient into the position embeddings: `dwpe[t, c]` is the sum over the
/// `b_len` sequences of `dout[b, t, c]`.
#[sarek::kernel]
pub fn encoder_backward_wpe(dout: &[f32], b_len: usize, dwpe: &mut [f32]) {
    let idx = global_thread_id();
    if idx < dwpe.len() {
        let mut acc = 0.0f32;
        for b in 0..b_len {
            acc += dout[b * dwpe.len() + idx];
        }
        dwpe[idx] = acc;
    }
}

/// `out = a + b`: the residual connections, and the sums of gradients where a value feeds
/// two places.
#[sarek::kernel]
pub fn add(a: &[f32], b: &[f32], out: &mut [f32]) {
    let i = global_thread_id();
    if i < out.len() {
        out[i] = a[i] + b[i];
    }
}

/// Gathers heads out of rows: `dst[b, h, t, d] = src[b, t, offset + h * hs + d]`, where rows
/// of `src` are `row_stride` apart. With the QKV rows (`row_stride = 3C`, `offset` 0, C or
/// 2C) it gives Q, K or V one matrix per head for the batched products; with rows of C it
/// is the gradient's way back through [`scatter_heads`].
#[sarek::kernel]
pub fn gather_heads(
    src: &[f32],
    t_len: usize,
    nh: usize,
    hs: usize,
    row_stride: usize,
    offset: usize,
    dst: &mut [f32],
) {
    let idx = global_thread_id();
    if idx < dst.len() {
        let d = idx % hs;
        let t = idx / hs % t_len;
        let h = idx / (hs * t_len) % nh;
        let b = idx / (hs * t_len * nh);
        dst[idx] = src[(b * t_len + t) * row_stride + offset + h * hs + d];
    }
}

/// The inverse of [`gather_heads`]: `dst[b, t, offset + h * hs + d] = src[b, h, t, d]`,
/// leaving the other columns of `dst` as they are.
#[sarek::kernel]
pub fn scatter_heads(
    src: &[f32],
    t_len: usize,
    nh: usize,
    hs: usize,
    row_stride: usize,
    offset: usize,
    dst: &mut [f32],
) {
    let idx = global_thread_id();
    if idx < src.len() {
        let d = idx % hs;
        let t = idx / hs % t_len;
        let h = idx / (hs * t_len) % nh;
        let b = idx / (hs * t_len * nh);
        dst[(b * t_len + t) * row_stride + offset + h * hs + d] = src[idx];
    }
}

/// Attention's causal softmax, one thread per row of `t_len` scores (row `r` is query
/// `t = r % t_len` of its head): `att[t, j] = softmax(scale · preatt[t, ..=t])[j]` for
/// `j <= t` and 0 after, so that the product with V that follows sees no future token.
/// (llm.c gives each row a warp; a thread suffices for short rows.)
#[sarek::kernel]
pub fn causal_softmax(preatt: &[f32], rows: usize, t_len: usize, scale: f32, att: &mut [f32]) {
    let row = global_thread_id();
    if row < rows {
        let t = row % t_len;
        let base = row * t_len;
        let mut mx = f32::NEG_INFINITY;
        for j in 0..t + 1 {
            mx = mx.max(scale * preatt[base + j]);
        }
        let mut sum = 0.0f32;
        for j in 0..t + 1 {
            let e = (scale * preatt[base + j] - mx).exp();
            att[base + j] = e;
            sum += e;
        }
        let inv = 1.0 / sum;
        for j in 0..t_len {
            att[base + j] = if j <= t { att[base + j] * inv } else { 0.0 };
        }
    }
}

/// The causal softmax's backward pass, one thread per row: with `p = att[t, ..]` and
/// `g = datt[t, ..]`, `dpreatt[t, j] = scale · p[j] · (g[j] - Σ_k p[k] g[k])` for `j <= t`,
/// and 0 for the masked scores.
#[sarek::kernel]
pub fn causal_softmax_backward(
    att: &[f32],
    datt: &[f32],
    rows: usize,
    t_len: usize,
    scale: f32,
    dpreatt: &mut [f32],
) {
    let row = global_thread_id();
    if row < rows {
        let t = row % t_len;
        let base = row * t_len;
        let mut dot = 0.0f32;
        for j in 0..t + 1 {
            dot += att[base + j] * datt[base + j];
        }
        for j in 0..t_len {
            dpreatt[base + j] = if j <= t {
                scale * att[base + j] * (datt[base + j] - dot)
            } else {
                0.0
            };
        }
    }
}

/// GELU in GPT-2's tanh approximation: `0.5 x (1 + tanh(√(2/π) (x + 0.044715 x³)))`.
#[sarek::kernel]
pub fn gelu_forward(x: &[f32], y: &mut [f32]) {
    let i = global_thread_id();
    if i < y.len() {
        let s = (2.0f32 / std::f32::consts::PI).sqrt();
        let v = x[i];
        y[i] = 0.5 * v * (1.0 + (s * (v + 0.044715 * v * v * v)).tanh());
    }
}

/// GELU's backward pass: `dx = dy · gelu'(x)`, the derivative of [`gelu_forward`]'s formula.
#[sarek::kernel]
pub fn gelu_backward(x: &[f32], dy: &[f32], dx: &mut [f32]) {
    let i = global_thread_id();
    if i < dx.len() {
        let s = (2.0f32 / std::f32::consts::PI).sqrt();
        let v = x[i];
        let th = (s * (v + 0.044715 * v * v * v)).tanh();
        let sech2 = 1.0 - th * th;
        let grad = 0.5 * (1.0 + th) + 0.5 * v * sech2 * s * (1.0 + 3.0 * 0.044715 * v * v);
        dx[i] = grad * dy[i];
    }
}

/// The gradient of the mean cross-entropy with respect to the logits, from the softmax's
/// probabilities: `dlogits[i, v] = (probs[i, v] - [v == targets[i]]) · dloss`, where `dloss`
/// is 1 over the number of rows.
#[sarek::kernel]
pub fn cross_entropy_backward(
    probs: &[f32],
    targets: &[u32],
    v_len: usize,
    dloss: f32,
    dlogits: &mut [f32],
) {
    let idx = global_thread_id();
    if idx < dlogits.len() {
        let hit = targets[idx / v_len] as usize == idx % v_len;
        let indicator = if hit { 1.0f32 } else { 0.0f32 };
        dlogits[idx] = (probs[idx] - indicator) * dloss;
    }
}

/// One AdamW step of a parameter tensor: the moments `m` and `v` updated with `grad`,
/// bias-corrected by `1 - beta^step` (`correction1`, `correction2`, from the host), and the
/// decoupled weight decay.
#[sarek::kernel]
#[allow(clippy::too_many_arguments)]
pub fn adamw(
    param: &mut [f32],
    grad: &[f32],
    m: &mut [f32],
    v: &mut [f32],
    lr: f32,
    beta1: f32,
    beta2: f32,
    correction1: f32,
    correction2: f32,
    eps: f32,
    weight_decay: f32,
) {
    let i = global_thread_id();
    if i < param.len() {
        let g = grad[i];
        let mi = beta1 * m[i] + (1.0 - beta1) * g;
        let vi = beta2 * v[i] + (1.0 - beta2) * g * g;
        m[i] = mi;
        v[i] = vi;
        let m_hat = mi / correction1;
        let v_hat = vi / correction2;
        param[i] -= lr * (m_hat / (v_hat.sqrt() + eps) + weight_decay * param[i]);
    }
}

// ---------------------------------------------------------------------------------------
// The model's tensors.
// ---------------------------------------------------------------------------------------

/// GPT-2's parameters for one block, as llm.c names them: on the device (`Buffer<f32>`),
/// and on the host (`Vec<f64>`) for the reference. Weights are stored as PyTorch stores a
/// linear layer's: `out` rows of `in` columns.
struct Params<P> {
    wte: P,      // V × C, the token embeddings, also the classifier's weight
    wpe: P,      // T × C, the position embeddings
    ln1w: P,     // C
    ln1b: P,     // C
    qkvw: P,     // 3C × C
    qkvb: P,     // 3C
    attprojw: P, // C × C
    attprojb: P, // C
    ln2w: P,     // C
    ln2b: P,     // C
    fcw: P,      // 4C × C
    fcb: P,      // 4C
    fcprojw: P,  // C × 4C
    fcprojb: P,  // C
    lnfw: P,     // C
    lnfb: P,     // C
}

impl<P> Params<P> {
    /// Each tensor from `f(name, length)`.
    fn build<E>(mut f: impl FnMut(&'static str, usize) -> Result<P, E>) -> Result<Params<P>, E> {
        Ok(Params {
            wte: f("wte", V * C)?,
            wpe: f("wpe", T * C)?,
            ln1w: f("ln1w", C)?,
            ln1b: f("ln1b", C)?,
            qkvw: f("qkvw", 3 * C * C)?,
            qkvb: f("qkvb", 3 * C)?,
            attprojw: f("attprojw", C * C)?,
            attprojb: f("attprojb", C)?,
            ln2w: f("ln2w", C)?,
            ln2b: f("ln2b", C)?,
            fcw: f("fcw", 4 * C * C)?,
            fcb: f("fcb", 4 * C)?,
            fcprojw: f("fcprojw", 4 * C * C)?,
            fcprojb: f("fcprojb", C)?,
            lnfw: f("lnfw", C)?,
            lnfb: f("lnfb", C)?,
        })
    }

    /// Each tensor from `f(tensor)`.
    fn map<Q, E>(&self, mut f: impl FnMut(&P) -> Result<Q, E>) -> Result<Params<Q>, E> {
        let mut tensors = self.each().into_iter();
        Params::build(|_, _| f(tensors.next().expect("16 tensors")))
    }

    /// The tensors in [`Params::build`]'s order.
    fn each(&self) -> [&P; 16] {
        [
            &self.wte,
            &self.wpe,
            &self.ln1w,
            &self.ln1b,
            &self.qkvw,
            &self.qkvb,
            &self.attprojw,
            &self.attprojb,
            &self.ln2w,
            &self.ln2b,
            &self.fcw,
            &self.fcb,
            &self.fcprojw,
            &self.fcprojb,
            &self.lnfw,
            &self.lnfb,
        ]
    }

    /// The tensors in [`Params::build`]'s order, to change.
    fn each_mut(&mut self) -> [&mut P; 16] {
        [
            &mut self.wte,
            &mut self.wpe,
            &mut self.ln1w,
            &mut self.ln1b,
            &mut self.qkvw,
            &mut self.qkvb,
            &mut self.attprojw,
            &mut self.attprojb,
            &mut self.ln2w,
            &mut self.ln2b,
            &mut self.fcw,
            &mut self.fcb,
            &mut self.fcprojw,
            &mut self.fcprojb,
            &mut self.lnfw,
            &mut self.lnfb,
        ]
    }
}

/// The tensors' names, in [`Params::build`]'s order.
const NAMES: [&str; 16] = [
    "wte", "wpe", "ln1w", "ln1b", "qkvw", "qkvb", "attprojw", "attprojb", "ln2w", "ln2b", "fcw",
    "fcb", "fcprojw", "fcprojb", "lnfw", "lnfb",
];

/// Whether AdamW decays a tensor: the matrices, not the biases and layer norms.
fn decays(name: &str) -> bool {
    matches!(
        name,
        "wte" | "wpe" | "qkvw" | "attprojw" | "fcw" | "fcprojw"
    )
}

/// The forward pass's activations on the device, kept for the backward pass.
/// Heads are `[B, NH, T, hs]`, scores `[B, NH, T, T]`, everything else rows of tokens.
struct Acts {
    encoded: Buffer<f32>,
    ln1: Buffer<f32>,
    ln1_mean: Buffer<f32>,
    ln1_rstd: Buffer<f32>,
    qkv: Buffer<f32>,
    q: Buffer<f32>,
    k: Buffer<f32>,
    v: Buffer<f32>,
    preatt: Buffer<f32>,
    att: Buffer<f32>,
    atty_heads: Buffer<f32>,
    atty: Buffer<f32>,
    attproj: Buffer<f32>,
    res2: Buffer<f32>,
    ln2: Buffer<f32>,
    ln2_mean: Buffer<f32>,
    ln2_rstd: Buffer<f32>,
    fch: Buffer<f32>,
    fch_gelu: Buffer<f32>,
    fcproj: Buffer<f32>,
    res3: Buffer<f32>,
    lnf: Buffer<f32>,
    lnf_mean: Buffer<f32>,
    lnf_rstd: Buffer<f32>,
    logits: Buffer<f32>,
    probs: Buffer<f32>,
    losses: Buffer<f32>,
    loss: Buffer<f32>,
}

impl Acts {
    fn new(dev: &Device) -> sarek::Result<Acts> {
        let z = |n| dev.zeros::<f32>(n);
        Ok(Acts {
            encoded: z(BT * C)?,
            ln1: z(BT * C)?,
            ln1_mean: z(BT)?,
            ln1_rstd: z(BT)?,
            qkv: z(BT * 3 * C)?,
            q: z(BT * C)?,
            k: z(BT * C)?,
            v: z(BT * C)?,
            preatt: z(B * NH * T * T)?,
            att: z(B * NH * T * T)?,
            atty_heads: z(BT * C)?,
            atty: z(BT * C)?,
            attproj: z(BT * C)?,
            res2: z(BT * C)?,
            ln2: z(BT * C)?,
            ln2_mean: z(BT)?,
            ln2_rstd: z(BT)?,
            fch: z(BT * 4 * C)?,
            fch_gelu: z(BT * 4 * C)?,
            fcproj: z(BT * C)?,
            res3: z(BT * C)?,
            lnf: z(BT * C)?,
            lnf_mean: z(BT)?,
            lnf_rstd: z(BT)?,
            logits: z(BT * V)?,
            probs: z(BT * V)?,
            losses: z(BT)?,
            loss: z(1)?,
        })
    }
}

/// The activations' gradients and the backward pass's scratch.
struct ActGrads {
    dlogits: Buffer<f32>,
    dlnf: Buffer<f32>,
    dres3: Buffer<f32>,
    dfch_gelu: Buffer<f32>,
    dfch: Buffer<f32>,
    dln2: Buffer<f32>,
    dln_in: Buffer<f32>, // a layer norm's input gradient, before the residual's is added
    dres2: Buffer<f32>,
    datty: Buffer<f32>,
    datty_heads: Buffer<f32>,
    datt: Buffer<f32>,
    dpreatt: Buffer<f32>,
    dq: Buffer<f32>,
    dk: Buffer<f32>,
    dv: Buffer<f32>,
    dqkv: Buffer<f32>,
    dln1: Buffer<f32>,
    dencoded: Buffer<f32>,
    ones: Buffer<f32>, // a row of BT ones: its product with a gradient sums its columns
    // Layer norm's backward scratch, shared by the three: their passes run one after another.
    ln: LayerNormBackward,
}

impl ActGrads {
    fn new(dev: &Device) -> sarek::Result<ActGrads> {
        let z = |n| dev.zeros::<f32>(n);
        Ok(ActGrads {
            dlogits: z(BT * V)?,
            dlnf: z(BT * C)?,
            dres3: z(BT * C)?,
            dfch_gelu: z(BT * 4 * C)?,
            dfch: z(BT * 4 * C)?,
            dln2: z(BT * C)?,
            dln_in: z(BT * C)?,
            dres2: z(BT * C)?,
            datty: z(BT * C)?,
            datty_heads: z(BT * C)?,
            datt: z(B * NH * T * T)?,
            dpreatt: z(B * NH * T * T)?,
            dq: z(BT * C)?,
            dk: z(BT * C)?,
            dv: z(BT * C)?,
            dqkv: z(BT * 3 * C)?,
            dln1: z(BT * C)?,
            dencoded: z(BT * C)?,
            ones: dev.upload(&[1.0f32; BT])?,
            ln: LayerNormBackward::new(dev, BT, C)?,
        })
    }
}

// ---------------------------------------------------------------------------------------
// The step on the device.
// ---------------------------------------------------------------------------------------

/// A linear layer over the BT token rows, `y = x · Wᵀ (+ b)`: `W` is `out` rows of `in`
/// columns, so `Wᵀ` is `W` read column-major.
fn linear(inp: usize, out: usize) -> Matmul {
    Matmul::new(BT, out, inp).b_layout(Layout::ColumnMajor)
}

/// A linear layer's backward pass from the output gradient `dy` (BT × `out`): the input
/// gradient `dx = dy · W`, the weight gradient `dW = dyᵀ · x` (`dy` read column-major is its
/// transpose) and the bias gradient `db = 1ᵀ · dy`, the sum of `dy`'s rows.
#[allow(clippy::too_many_arguments)]
fn linear_backward(
    batch: &mut Batch,
    ones: &Buffer<f32>,
    dy: &Buffer<f32>,
    x: &Buffer<f32>,
    w: &Buffer<f32>,
    inp: usize,
    out: usize,
    dx: &mut Buffer<f32>,
    dw: &mut Buffer<f32>,
    db: &mut Buffer<f32>,
) -> sarek::Result<()> {
    Matmul::new(BT, inp, out).enqueue(batch, dy, w, dx)?;
    Matmul::new(out, inp, BT)
        .a_layout(Layout::ColumnMajor)
        .enqueue(batch, dy, x, dw)?;
    Matmul::new(1, out, BT).enqueue(batch, ones, dy, db)
}

/// The scale of attention's scores, `1 / sqrt(hs)`.
fn attention_scale() -> f32 {
    1.0 / (HS as f32).sqrt()
}

/// Records the forward pass, from the tokens to the mean loss in `a.loss` and the
/// probabilities the backward pass needs in `a.probs`.
fn forward(
    batch: &mut Batch,
    p: &Params<Buffer<f32>>,
    tokens: &Buffer<u32>,
    targets: &Buffer<u32>,
    a: &mut Acts,
) -> sarek::Result<()> {
    let all = Grid::cover(BT * C);
    encoder_forward.enqueue(batch, all, tokens, &p.wte, &p.wpe, T, C, &mut a.encoded)?;
    rows::enqueue_layer_norm(
        batch,
        &a.encoded,
        &p.ln1w,
        &p.ln1b,
        LN_EPS,
        &mut a.ln1,
        &mut a.ln1_mean,
        &mut a.ln1_rstd,
    )?;
    linear(C, 3 * C).enqueue_with_bias(batch, &a.ln1, &p.qkvw, &p.qkvb, &mut a.qkv)?;

    // Attention as llm.c's f32 path does it: Q, K and V one matrix per head, the scores
    // Q · Kᵀ of every head in one batched product (K read column-major is Kᵀ), the causal
    // softmax, P · V batched again, and the heads put back side by side in rows.
    for (part, dst) in [&mut a.q, &mut a.k, &mut a.v].into_iter().enumerate() {
        gather_heads.enqueue(batch, all, &a.qkv, T, NH, HS, 3 * C, part * C, dst)?;
    }
    Matmul::new(T, T, HS)
        .b_layout(Layout::ColumnMajor)
        .batch(B * NH)
        .enqueue(batch, &a.q, &a.k, &mut a.preatt)?;
    let rows = B * NH * T;
    let scale = attention_scale();
    causal_softmax.enqueue(
        batch,
        Grid::cover(rows),
        &a.preatt,
        rows,
        T,
        scale,
        &mut a.att,
    )?;
    Matmul::new(T, HS, T)
        .batch(B * NH)
        .enqueue(batch, &a.att, &a.v, &mut a.atty_heads)?;
    scatter_heads.enqueue(batch, all, &a.atty_heads, T, NH, HS, C, 0, &mut a.atty)?;

    linear(C, C).enqueue_with_bias(batch, &a.atty, &p.attprojw, &p.attprojb, &mut a.attproj)?;
    add.enqueue(batch, all, &a.encoded, &a.attproj, &mut a.res2)?;
    rows::enqueue_layer_norm(
        batch,
        &a.res2,
        &p.ln2w,
        &p.ln2b,
        LN_EPS,
        &mut a.ln2,
        &mut a.ln2_mean,
        &mut a.ln2_rstd,
    )?;
    linear(C, 4 * C).enqueue_with_bias(batch, &a.ln2, &p.fcw, &p.fcb, &mut a.fch)?;
    gelu_forward.enqueue(batch, Grid::cover(BT * 4 * C), &a.fch, &mut a.fch_gelu)?;
    linear(4 * C, C).enqueue_with_bias(
        batch,
        &a.fch_gelu,
        &p.fcprojw,
        &p.fcprojb,
        &mut a.fcproj,
    )?;
    add.enqueue(batch, all, &a.res2, &a.fcproj, &mut a.res3)?;
    rows::enqueue_layer_norm(
        batch,
        &a.res3,
        &p.lnfw,
        &p.lnfb,
        LN_EPS,
        &mut a.lnf,
        &mut a.lnf_mean,
        &mut a.lnf_rstd,
    )?;

    // The classifier shares the token embeddings: logits = lnf · wteᵀ, no bias.
    Matmul::new(BT, V, C)
        .b_layout(Layout::ColumnMajor)
        .enqueue(batch, &a.lnf, &p.wte, &mut a.logits)?;
    rows::enqueue_cross_entropy(batch, &a.logits, V, targets, &mut a.losses, &mut a.loss)?;
    rows::enqueue_softmax(batch, &a.logits, V, &mut a.probs)
}

/// Records the backward pass of the mean loss into the parameters' gradients `g`; every
/// gradient is written whole (none accumulates from an earlier step).
fn backward(
    batch: &mut Batch,
    p: &Params<Buffer<f32>>,
    tokens: &Buffer<u32>,
    targets: &Buffer<u32>,
    a: &Acts,
    d: &mut ActGrads,
    g: &mut Params<Buffer<f32>>,
) -> sarek::Result<()> {
    let all = Grid::cover(BT * C);
    let dloss = 1.0 / BT as f32; // the loss is the mean over the tokens
    cross_entropy_backward.enqueue(
        batch,
        Grid::cover(BT * V),
        &a.probs,
        targets,
        V,
        dloss,
        &mut d.dlogits,
    )?;
    // logits = lnf · wteᵀ: dlnf = dlogits · wte, dwte = dlogitsᵀ · lnf (the classifier's part).
    Matmul::new(BT, C, V).enqueue(batch, &d.dlogits, &p.wte, &mut d.dlnf)?;
    Matmul::new(V, C, BT)
        .a_layout(Layout::ColumnMajor)
        .enqueue(batch, &d.dlogits, &a.lnf, &mut g.wte)?;
    d.ln.enqueue(
        batch,
        &d.dlnf,
        &a.res3,
        &a.lnf_mean,
        &a.lnf_rstd,
        &p.lnfw,
        &mut d.dres3,
        &mut g.lnfw,
        &mut g.lnfb,
    )?;

    // res3 = res2 + fcproj: dres3 is the gradient of both.
    linear_backward(
        batch,
        &d.ones,
        &d.dres3,
        &a.fch_gelu,
        &p.fcprojw,
        4 * C,
        C,
        &mut d.dfch_gelu,
        &mut g.fcprojw,
        &mut g.fcprojb,
    )?;
    gelu_backward.enqueue(
        batch,
        Grid::cover(BT * 4 * C),
        &a.fch,
        &d.dfch_gelu,
        &mut d.dfch,
    )?;
    linear_backward(
        batch,
        &d.ones,
        &d.dfch,
        &a.ln2,
        &p.fcw,
        C,
        4 * C,
        &mut d.dln2,
        &mut g.fcw,
        &mut g.fcb,
    )?;
    d.ln.enqueue(
        batch,
        &d.dln2,
        &a.res2,
        &a.ln2_mean,
        &a.ln2_rstd,
        &p.ln2w,
        &mut d.dln_in,
        &mut g.ln2w,
        &mut g.ln2b,
    )?;
    add.enqueue(batch, all, &d.dres3, &d.dln_in, &mut d.dres2)?;

    // res2 = encoded + attproj: dres2 is the gradient of both.
    linear_backward(
        batch,
        &d.ones,
        &d.dres2,
        &a.atty,
        &p.attprojw,
        C,
        C,
        &mut d.datty,
        &mut g.attprojw,
        &mut g.attprojb,
    )?;

    // Attention backward, the forward pass's products in reverse, batched over the heads.
    gather_heads.enqueue(batch, all, &d.datty, T, NH, HS, C, 0, &mut d.datty_heads)?;
    let heads = B * NH;
    // y = P · V: dP = dy · Vᵀ and dV = Pᵀ · dy.
    Matmul::new(T, T, HS)
        .b_layout(Layout::ColumnMajor)
        .batch(heads)
        .enqueue(batch, &d.datty_heads, &a.v, &mut d.datt)?;
    Matmul::new(T, HS, T)
        .a_layout(Layout::ColumnMajor)
        .batch(heads)
        .enqueue(batch, &a.att, &d.datty_heads, &mut d.dv)?;
    let rows = heads * T;
    causal_softmax_backward.enqueue(
        batch,
        Grid::cover(rows),
        &a.att,
        &d.datt,
        rows,
        T,
        attention_scale(),
        &mut d.dpreatt,
    )?;
    // S = Q · Kᵀ: dQ = dS · K and dK = dSᵀ · Q.
    Matmul::new(T, HS, T)
        .batch(heads)
        .enqueue(batch, &d.dpreatt, &a.k, &mut d.dq)?;
    Matmul::new(T, HS, T)
        .a_layout(Layout::ColumnMajor)
        .batch(heads)
        .enqueue(batch, &d.dpreatt, &a.q, &mut d.dk)?;
    for (part, src) in [&d.dq, &d.dk, &d.dv].into_iter().enumerate() {
        scatter_heads.enqueue(batch, all, src, T, NH, HS, 3 * C, part * C, &mut d.dqkv)?;
    }

    linear_backward(
        batch,
        &d.ones,
        &d.dqkv,
        &a.ln1,
        &p.qkvw,
        C,
        3 * C,
        &mut d.dln1,
        &mut g.qkvw,
        &mut g.qkvb,
    )?;
    d.ln.enqueue(
        batch,
        &d.dln1,
        &a.encoded,
        &a.ln1_mean,
        &a.ln1_rstd,
        &p.ln1w,
        &mut d.dln_in,
        &mut g.ln1w,
        &mut g.ln1b,
    )?;
    add.enqueue(batch, all, &d.dres2, &d.dln_in, &mut d.dencoded)?;

    // The encoder: into the token embeddings after the classifier's part, and the positions.
    encoder_backward_wte.enqueue(
        batch,
        Grid::cover(V * C),
        &d.dencoded,
        tokens,
        C,
        &mut g.wte,
    )?;
    encoder_backward_wpe.enqueue(batch, Grid::cover(T * C), &d.dencoded, B, &mut g.wpe)
}

/// Records AdamW's step number `step` (from 1) over every parameter.
fn update(
    batch: &mut Batch,
    p: &mut Params<Buffer<f32>>,
    g: &Params<Buffer<f32>>,
    m: &mut Params<Buffer<f32>>,
    v: &mut Params<Buffer<f32>>,
    step: i32,
) -> sarek::Result<()> {
    let tensors = p
        .each_mut()
        .into_iter()
        .zip(g.each())
        .zip(m.each_mut())
        .zip(v.each_mut());
    for ((((param, grad), m), v), name) in tensors.zip(NAMES) {
        let decay = if decays(name) { WEIGHT_DECAY } else { 0.0 };
        adamw.enqueue(
            batch,
            Grid::cover(param.len()),
            param,
            grad,
            m,
            v,
            LR,
            BETA1,
            BETA2,
            1.0 - BETA1.powi(step),
            1.0 - BETA2.powi(step),
            ADAM_EPS,
            decay,
        )?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// The example: the step, then the checks.
// ---------------------------------------------------------------------------------------

/// SplitMix64: random numbers from a fixed seed, the same on every machine.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `[-scale, scale)`.
    fn uniform(&mut self, scale: f32) -> f32 {
        let unit = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        (2.0 * unit - 1.0) * scale
    }
}

/// The largest error of `got` against `want`, relative to the largest magnitude in `want`.
fn relative_error(got: &[f64], want: &[f64]) -> f64 {
    assert_eq!(got.len(), want.len());
    let err = got
        .iter()
        .zip(want)
        .map(|(g, w)| (g - w).abs())
        .fold(0.0, f64::max);
    let scale = want.iter().map(|w| w.abs()).fold(0.0, f64::max);
    err / scale.max(f64::MIN_POSITIVE)
}

/// `"ok"` or `"FAILED"`.
fn verdict(ok: bool) -> &'static str {
    if ok {
        "ok"
    } else {
        "FAILED"
    }
}

fn to_f64(x: &[f32]) -> Vec<f64> {
    x.iter().map(|&v| v as f64).collect()
}

/// The device's parameters, read back for the host reference.
fn read_params(p: &Params<Buffer<f32>>) -> sarek::Result<Params<Vec<f64>>> {
    p.map(|buffer| buffer.read().map(|x| to_f64(&x)))
}

fn main() -> sarek::Result<()> {
    let dev = Device::new()?;
    println!("adapter: {} ({:?})", dev.name(), dev.backend());

    // Random parameters from a fixed seed: small weights and biases, layer norm gains near 1.
    let mut rng = Rng(0x5eed);
    let init: Params<Vec<f32>> = Params::build(|name, len| {
        let values = (0..len).map(|_| match name {
            "ln1w" | "ln2w" | "lnfw" => 1.0 + rng.uniform(0.1),
            _ => rng.uniform(0.1),
        });
        Ok::<_, ()>(values.collect())
    })
    .expect("building from vectors cannot fail");
    // Tokens and their targets, the next tokens, as llm.c's data loader gives them.
    let sequence: Vec<Vec<u32>> = (0..B)
        .map(|_| {
            (0..=T)
                .map(|_| (rng.next_u64() % V as u64) as u32)
                .collect()
        })
        .collect();
    let tokens: Vec<u32> = sequence.iter().flat_map(|s| s[..T].to_vec()).collect();
    let targets: Vec<u32> = sequence.iter().flat_map(|s| s[1..].to_vec()).collect();

    let mut params = init.map(|host| dev.upload(host))?;
    let mut grads = Params::build(|_, len| dev.zeros::<f32>(len))?;
    let mut m = Params::build(|_, len| dev.zeros::<f32>(len))?;
    let mut v = Params::build(|_, len| dev.zeros::<f32>(len))?;
    let (tokens_dev, targets_dev) = (dev.upload(&tokens)?, dev.upload(&targets)?);
    let mut acts = Acts::new(&dev)?;
    let mut dacts = ActGrads::new(&dev)?;
    // AdamW's moments on the host, for the reference's update.
    let mut host_m = Params::build(|_, len| Ok::<_, ()>(vec![0.0f64; len])).expect("no error");
    let mut host_v = Params::build(|_, len| Ok::<_, ()>(vec![0.0f64; len])).expect("no error");

    let mut ok = true;
    let mut losses = Vec::new();
    for step in 1..=2 {
        let before = read_params(&params)?;

        // The whole step in one batch: nothing is read back until it is done.
        let start = std::time::Instant::now();
        let mut batch = dev.batch();
        forward(&mut batch, &params, &tokens_dev, &targets_dev, &mut acts)?;
        backward(
            &mut batch,
            &params,
            &tokens_dev,
            &targets_dev,
            &acts,
            &mut dacts,
            &mut grads,
        )?;
        update(&mut batch, &mut params, &grads, &mut m, &mut v, step)?;
        let launches = batch.len();
        batch.submit()?.wait()?;
        let elapsed = start.elapsed();

        // The host reference from the same parameters.
        let reference = host::forward(&before, &tokens, &targets);
        let reference_grads = host::backward(&before, &tokens, &targets, &reference);
        let loss = acts.loss.read()?[0];
        let loss_error = (loss as f64 - reference.loss).abs() / reference.loss.abs();
        ok &= loss_error <= LOSS_TOLERANCE;
        losses.push(loss);
        println!(
            "\nstep {step}: {launches} launches in one batch, {elapsed:?}{}",
            if step == 1 {
                " (with pipeline creation)"
            } else {
                ""
            }
        );
        println!(
            "loss {loss:.6}, host {:.6}, relative error {loss_error:.2e} {}",
            reference.loss,
            verdict(loss_error <= LOSS_TOLERANCE)
        );
        println!(
            "{:<9} {:>16} {:>16}",
            "tensor", "gradient error", "AdamW step error"
        );

        let tensors = NAMES.iter().zip(params.each()).zip(grads.each());
        let host_state = before.each().into_iter().zip(reference_grads.each());
        let moments = host_m.each_mut().into_iter().zip(host_v.each_mut());
        for (((name, param), grad), ((old, want_grad), (hm, hv))) in
            tensors.zip(host_state.zip(moments))
        {
            let grad = to_f64(&grad.read()?);
            let grad_error = relative_error(&grad, want_grad);
            // AdamW is checked on the device's own gradients: its first step moves each
            // parameter by about `lr · sign(gradient)`, so a gradient within rounding of 0
            // could flip the sign and the step however right the kernels are. The step (new
            // less old value) is compared, since the parameters' own size would hide it.
            let decay = if decays(name) { WEIGHT_DECAY } else { 0.0 };
            let want_new = host::adamw(old, &grad, hm, hv, step, decay as f64);
            let want_step: Vec<f64> = want_new.iter().zip(old).map(|(n, o)| n - o).collect();
            let new = to_f64(&param.read()?);
            let got_step: Vec<f64> = new.iter().zip(old).map(|(n, o)| n - o).collect();
            let step_error = relative_error(&got_step, &want_step);
            let row_ok = grad_error <= GRAD_TOLERANCE && step_error <= STEP_TOLERANCE;
            ok &= row_ok;
            println!(
                "{name:<9} {grad_error:>16.2e} {step_error:>16.2e}  {}",
                verdict(row_ok)
            );
        }
    }

    // A forward pass on the parameters after two steps: the loss went down at each.
    let mut batch = dev.batch();
    forward(&mut batch, &params, &tokens_dev, &targets_dev, &mut acts)?;
    batch.submit()?;
    losses.push(acts.loss.read()?[0]);
    let lower = losses.windows(2).all(|w| w[1] < w[0]);
    ok &= lower;
    println!(
        "\nloss {:.6}, after one step {:.6}, after two {:.6}: {}",
        losses[0],
        losses[1],
        losses[2],
        if lower {
            "down at each step"
        } else {
            "NOT down at each step"
        }
    );
    println!(
        "tolerances: loss {LOSS_TOLERANCE:e} relative; gradients {GRAD_TOLERANCE:e} and \
         AdamW's steps {STEP_TOLERANCE:e} of the tensor's largest magnitude"
    );
    if !ok {
        eprintln!("the device's training steps do not match the host reference");
        std::process::exit(1);
    }
    println!("the training steps match the host reference");
    Ok(())
}

// ---------------------------------------------------------------------------------------
// The host reference: the same math in f64, plain loops, nothing shared with the kernels.
// ---------------------------------------------------------------------------------------

mod host {
    use super::{Params, B, BETA1, BETA2, C, HS, LN_EPS, LR, NH, T, V};

    const BT: usize = B * T;

    /// What the backward pass needs of the forward pass.
    pub struct Forward {
        pub loss: f64,
        encoded: Vec<f64>,
        ln1: LayerNorm,
        qkv: Vec<f64>,
        att: Vec<f64>,
        atty: Vec<f64>,
        res2: Vec<f64>,
        ln2: LayerNorm,
        fch: Vec<f64>,
        fch_gelu: Vec<f64>,
        res3: Vec<f64>,
        lnf: LayerNorm,
        probs: Vec<f64>,
    }

    struct LayerNorm {
        y: Vec<f64>,
        mean: Vec<f64>,
        rstd: Vec<f64>,
    }

    fn layer_norm(x: &[f64], w: &[f64], b: &[f64]) -> LayerNorm {
        let rows = x.len() / C;
        let mut out = LayerNorm {
            y: vec![0.0; x.len()],
            mean: vec![0.0; rows],
            rstd: vec![0.0; rows],
        };
        for r in 0..rows {
            let row = &x[r * C..(r + 1) * C];
            let mean = row.iter().sum::<f64>() / C as f64;
            let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / C as f64;
            let rstd = 1.0 / (var + LN_EPS as f64).sqrt();
            for c in 0..C {
                out.y[r * C + c] = (row[c] - mean) * rstd * w[c] + b[c];
            }
            out.mean[r] = mean;
            out.rstd[r] = rstd;
        }
        out
    }

    /// `(dx, dw, db)`.
    fn layer_norm_backward(
        dy: &[f64],
        x: &[f64],
        ln: &LayerNorm,
        w: &[f64],
    ) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
        let (mut dx, mut dw, mut db) = (vec![0.0; x.len()], vec![0.0; C], vec![0.0; C]);
        for r in 0..x.len() / C {
            let xhat: Vec<f64> = (0..C)
                .map(|c| (x[r * C + c] - ln.mean[r]) * ln.rstd[r])
                .collect();
            let g: Vec<f64> = (0..C).map(|c| dy[r * C + c] * w[c]).collect();
            let mean_g = g.iter().sum::<f64>() / C as f64;
            let mean_gx = (0..C).map(|c| g[c] * xhat[c]).sum::<f64>() / C as f64;
            for c in 0..C {
                dx[r * C + c] = ln.rstd[r] * (g[c] - mean_g - xhat[c] * mean_gx);
                dw[c] += dy[r * C + c] * xhat[c];
                db[c] += dy[r * C + c];
            }
        }
        (dx, dw, db)
    }

    /// `y[r, o] = b[o] + Σ_i x[r, i] · w[o, i]` over the BT rows.
    fn linear(x: &[f64], w: &[f64], b: Option<&[f64]>, inp: usize, out: usize) -> Vec<f64> {
        let mut y = vec![0.0; BT * out];
        for r in 0..BT {
            for o in 0..out {
                let mut acc = b.map_or(0.0, |b| b[o]);
                for i in 0..inp {
                    acc += x[r * inp + i] * w[o * inp + i];
                }
                y[r * out + o] = acc;
            }
        }
        y
    }

    /// `(dx, dw, db)` of [`linear`].
    fn linear_backward(
        dy: &[f64],
        x: &[f64],
        w: &[f64],
        inp: usize,
        out: usize,
    ) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
        let (mut dx, mut dw, mut db) = (vec![0.0; BT * inp], vec![0.0; out * inp], vec![0.0; out]);
        for r in 0..BT {
            for o in 0..out {
                let d = dy[r * out + o];
                db[o] += d;
                for i in 0..inp {
                    dx[r * inp + i] += d * w[o * inp + i];
                    dw[o * inp + i] += d * x[r * inp + i];
                }
            }
        }
        (dx, dw, db)
    }

    const GELU_K: f64 = 0.044715;

    fn gelu(x: f64) -> f64 {
        let s = (2.0 / std::f64::consts::PI).sqrt();
        0.5 * x * (1.0 + (s * (x + GELU_K * x * x * x)).tanh())
    }

    fn gelu_grad(x: f64) -> f64 {
        let s = (2.0 / std::f64::consts::PI).sqrt();
        let th = (s * (x + GELU_K * x * x * x)).tanh();
        0.5 * (1.0 + th) + 0.5 * x * (1.0 - th * th) * s * (1.0 + 3.0 * GELU_K * x * x)
    }

    /// Causal self-attention over the QKV rows: the probabilities `[B, NH, T, T]` and the
    /// output rows.
    fn attention(qkv: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let scale = 1.0 / (HS as f64).sqrt();
        let mut att = vec![0.0; B * NH * T * T];
        let mut out = vec![0.0; BT * C];
        for b in 0..B {
            for h in 0..NH {
                for t in 0..T {
                    let q = &qkv[(b * T + t) * 3 * C + h * HS..][..HS];
                    let row = &mut att[((b * NH + h) * T + t) * T..][..T];
                    for (t2, score) in row.iter_mut().enumerate().take(t + 1) {
                        let k = &qkv[(b * T + t2) * 3 * C + C + h * HS..][..HS];
                        *score = scale * (0..HS).map(|d| q[d] * k[d]).sum::<f64>();
                    }
                    let mx = row[..=t].iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                    let sum: f64 = row[..=t].iter().map(|s| (s - mx).exp()).sum();
                    for score in &mut row[..=t] {
                        *score = (*score - mx).exp() / sum;
                    }
                    for t2 in 0..=t {
                        let v = &qkv[(b * T + t2) * 3 * C + 2 * C + h * HS..][..HS];
                        for d in 0..HS {
                            out[(b * T + t) * C + h * HS + d] += row[t2] * v[d];
                        }
                    }
                }
            }
        }
        (att, out)
    }

    /// The gradient of the QKV rows from the output rows' gradient `dout`.
    fn attention_backward(dout: &[f64], qkv: &[f64], att: &[f64]) -> Vec<f64> {
        let scale = 1.0 / (HS as f64).sqrt();
        let mut dqkv = vec![0.0; BT * 3 * C];
        let at =
            |b: usize, t: usize, part: usize, h: usize| (b * T + t) * 3 * C + part * C + h * HS;
        for b in 0..B {
            for h in 0..NH {
                for t in 0..T {
                    let p = &att[((b * NH + h) * T + t) * T..][..T];
                    let dy = &dout[(b * T + t) * C + h * HS..][..HS];
                    // Through P · V.
                    let mut dp = vec![0.0; T];
                    for t2 in 0..=t {
                        for d in 0..HS {
                            dp[t2] += dy[d] * qkv[at(b, t2, 2, h) + d];
                            dqkv[at(b, t2, 2, h) + d] += p[t2] * dy[d];
                        }
                    }
                    // Through the softmax, then the scaled Q · Kᵀ.
                    let dot: f64 = (0..=t).map(|t2| p[t2] * dp[t2]).sum();
                    for t2 in 0..=t {
                        let ds = scale * p[t2] * (dp[t2] - dot);
                        for d in 0..HS {
                            dqkv[at(b, t, 0, h) + d] += ds * qkv[at(b, t2, 1, h) + d];
                            dqkv[at(b, t2, 1, h) + d] += ds * qkv[at(b, t, 0, h) + d];
                        }
                    }
                }
            }
        }
        dqkv
    }

    fn add(a: &[f64], b: &[f64]) -> Vec<f64> {
        a.iter().zip(b).map(|(x, y)| x + y).collect()
    }

    pub fn forward(p: &Params<Vec<f64>>, tokens: &[u32], targets: &[u32]) -> Forward {
        let mut encoded = vec![0.0; BT * C];
        for i in 0..BT {
            for c in 0..C {
                encoded[i * C + c] = p.wte[tokens[i] as usize * C + c] + p.wpe[(i % T) * C + c];
            }
        }
        let ln1 = layer_norm(&encoded, &p.ln1w, &p.ln1b);
        let qkv = linear(&ln1.y, &p.qkvw, Some(&p.qkvb), C, 3 * C);
        let (att, atty) = attention(&qkv);
        let attproj = linear(&atty, &p.attprojw, Some(&p.attprojb), C, C);
        let res2 = add(&encoded, &attproj);
        let ln2 = layer_norm(&res2, &p.ln2w, &p.ln2b);
        let fch = linear(&ln2.y, &p.fcw, Some(&p.fcb), C, 4 * C);
        let fch_gelu: Vec<f64> = fch.iter().map(|&x| gelu(x)).collect();
        let fcproj = linear(&fch_gelu, &p.fcprojw, Some(&p.fcprojb), 4 * C, C);
        let res3 = add(&res2, &fcproj);
        let lnf = layer_norm(&res3, &p.lnfw, &p.lnfb);
        let logits = linear(&lnf.y, &p.wte, None, C, V);
        let mut probs = vec![0.0; BT * V];
        let mut loss = 0.0;
        for i in 0..BT {
            let row = &logits[i * V..(i + 1) * V];
            let mx = row.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let sum: f64 = row.iter().map(|x| (x - mx).exp()).sum();
            for v in 0..V {
                probs[i * V + v] = (row[v] - mx).exp() / sum;
            }
            loss -= probs[i * V + targets[i] as usize].ln();
        }
        Forward {
            loss: loss / BT as f64,
            encoded,
            ln1,
            qkv,
            att,
            atty,
            res2,
            ln2,
            fch,
            fch_gelu,
            res3,
            lnf,
            probs,
        }
    }

    pub fn backward(
        p: &Params<Vec<f64>>,
        tokens: &[u32],
        targets: &[u32],
        f: &Forward,
    ) -> Params<Vec<f64>> {
        let mut dlogits = f.probs.clone();
        for i in 0..BT {
            dlogits[i * V + targets[i] as usize] -= 1.0;
        }
        for d in &mut dlogits {
            *d /= BT as f64;
        }
        let (dlnf, mut dwte, _) = linear_backward(&dlogits, &f.lnf.y, &p.wte, C, V);
        let (dres3, dlnfw, dlnfb) = layer_norm_backward(&dlnf, &f.res3, &f.lnf, &p.lnfw);
        let (dfch_gelu, dfcprojw, dfcprojb) =
            linear_backward(&dres3, &f.fch_gelu, &p.fcprojw, 4 * C, C);
        let dfch: Vec<f64> = dfch_gelu
            .iter()
            .zip(&f.fch)
            .map(|(d, &x)| d * gelu_grad(x))
            .collect();
        let (dln2, dfcw, dfcb) = linear_backward(&dfch, &f.ln2.y, &p.fcw, C, 4 * C);
        let (dres2_ln, dln2w, dln2b) = layer_norm_backward(&dln2, &f.res2, &f.ln2, &p.ln2w);
        let dres2 = add(&dres3, &dres2_ln);
        let (datty, dattprojw, dattprojb) = linear_backward(&dres2, &f.atty, &p.attprojw, C, C);
        let dqkv = attention_backward(&datty, &f.qkv, &f.att);
        let (dln1, dqkvw, dqkvb) = linear_backward(&dqkv, &f.ln1.y, &p.qkvw, C, 3 * C);
        let (dencoded_ln, dln1w, dln1b) = layer_norm_backward(&dln1, &f.encoded, &f.ln1, &p.ln1w);
        let dencoded = add(&dres2, &dencoded_ln);
        let mut dwpe = vec![0.0; T * C];
        for i in 0..BT {
            for c in 0..C {
                dwte[tokens[i] as usize * C + c] += dencoded[i * C + c];
                dwpe[(i % T) * C + c] += dencoded[i * C + c];
            }
        }
        Params {
            wte: dwte,
            wpe: dwpe,
            ln1w: dln1w,
            ln1b: dln1b,
            qkvw: dqkvw,
            qkvb: dqkvb,
            attprojw: dattprojw,
            attprojb: dattprojb,
            ln2w: dln2w,
            ln2b: dln2b,
            fcw: dfcw,
            fcb: dfcb,
            fcprojw: dfcprojw,
            fcprojb: dfcprojb,
            lnfw: dlnfw,
            lnfb: dlnfb,
        }
    }

    /// AdamW's step number `step` (from 1) of `param` with gradient `grad`: the moments `m`
    /// and `v` updated in place, the new parameter returned.
    pub fn adamw(
        param: &[f64],
        grad: &[f64],
        m: &mut [f64],
        v: &mut [f64],
        step: i32,
        weight_decay: f64,
    ) -> Vec<f64> {
        let (b1, b2) = (BETA1 as f64, BETA2 as f64);
        let eps = super::ADAM_EPS as f64;
        let mut out = vec![0.0; param.len()];
        for i in 0..param.len() {
            m[i] = b1 * m[i] + (1.0 - b1) * grad[i];
            v[i] = b2 * v[i] + (1.0 - b2) * grad[i] * grad[i];
            let m_hat = m[i] / (1.0 - b1.powi(step));
            let v_hat = v[i] / (1.0 - b2.powi(step));
            out[i] =
                param[i] - LR as f64 * (m_hat / (v_hat.sqrt() + eps) + weight_decay * param[i]);
        }
        out
    }
}
