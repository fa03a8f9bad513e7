//! The error function on the host, for kernel bodies run as plain Rust: `f32::erf` is not
//! stable Rust yet, so kernels call `x.erf()` through this trait (in scope in every kernel body
//! through `sarek::gpu::*`). Once the standard library's method is stable it takes precedence,
//! with the same meaning.

/// `erf`, the error function `2/√π ∫₀ˣ e^(−t²) dt`, for `f32` and `f16`.
///
/// On the host it is computed in `f64` and rounded (within an `f32` ULP); in a kernel, Sarek's
/// polyfill (within 3 ULP of `f32` on the CPU backend; the guide's semantics chapter gives the
/// GPU's bound). An `f16` is computed in `f32` and rounded, as Sarek computes `f16` math.
///
/// ```
/// use sarek::gpu::Erf;
/// assert!((Erf::erf(1.0f32) - 0.842_700_8).abs() < 1e-7);
/// assert_eq!(Erf::erf(f32::INFINITY), 1.0);
/// ```
pub trait Erf {
    /// The error function of `self`.
    fn erf(self) -> Self;
}

impl Erf for f32 {
    fn erf(self) -> f32 {
        erf_f64(f64::from(self)) as f32
    }
}

impl Erf for half::f16 {
    fn erf(self) -> half::f16 {
        half::f16::from_f32(Erf::erf(self.to_f32()))
    }
}

/// `erf(x)` in `f64`: its Maclaurin series below 2.5, the continued fraction of `erfc`
/// (Lentz's method) above.
fn erf_f64(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let a = x.abs();
    let r = if a < 2.5 {
        let (mut term, mut sum, t) = (a, a, a * a);
        for n in 1..200 {
            term *= -t / f64::from(n);
            let add = term / f64::from(2 * n + 1);
            sum += add;
            if add.abs() <= 1e-18 * sum.abs() {
                break;
            }
        }
        sum * std::f64::consts::FRAC_2_SQRT_PI
    } else if a < 6.0 {
        // erfc(a) = exp(-a²)/√π / (a + (1/2)/(a + 1/(a + (3/2)/(a + ..)))).
        let tiny = 1e-300;
        let (mut f, mut c, mut d) = (a, a, 0.0);
        for n in 1..500 {
            let k = f64::from(n) / 2.0;
            d = a + k * d;
            d = if d == 0.0 { tiny } else { 1.0 / d };
            c = a + k / c;
            if c == 0.0 {
                c = tiny;
            }
            let step = c * d;
            f *= step;
            if (step - 1.0).abs() < 1e-16 {
                break;
            }
        }
        1.0 - (-a * a).exp() * std::f64::consts::FRAC_2_SQRT_PI / 2.0 / f
    } else {
        1.0
    };
    r.copysign(x)
}
