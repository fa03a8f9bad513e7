//! Generated: deep expressions and a chain of 60 helpers, just inside the documented nesting limits
//! (`sarek_codegen::front::depth`), compiles.

#[sarek::module]
mod m {
    use sarek::prelude::*;

    fn h0(x: f32) -> f32 {
        x
    }

    fn h1(x: f32) -> f32 {
        h0(x)
    }

    fn h2(x: f32) -> f32 {
        h1(x)
    }

    fn h3(x: f32) -> f32 {
        h2(x)
    }

    fn h4(x: f32) -> f32 {
        h3(x)
    }

    fn h5(x: f32) -> f32 {
        h4(x)
    }

    fn h6(x: f32) -> f32 {
        h5(x)
    }

    fn h7(x: f32) -> f32 {
        h6(x)
    }

    fn h8(x: f32) -> f32 {
        h7(x)
    }

    fn h9(x: f32) -> f32 {
        h8(x)
    }

    fn h10(x: f32) -> f32 {
        h9(x)
    }

    fn h11(x: f32) -> f32 {
        h10(x)
    }

    fn h12(x: f32) -> f32 {
        h11(x)
    }

    fn h13(x: f32) -> f32 {
        h12(x)
    }

    fn h14(x: f32) -> f32 {
        h13(x)
    }

    fn h15(x: f32) -> f32 {
        h14(x)
    }

    fn h16(x: f32) -> f32 {
        h15(x)
    }

    fn h17(x: f32) -> f32 {
        h16(x)
    }

    fn h18(x: f32) -> f32 {
        h17(x)
    }

    fn h19(x: f32) -> f32 {
        h18(x)
    }

    fn h20(x: f32) -> f32 {
        h19(x)
    }

    fn h21(x: f32) -> f32 {
        h20(x)
    }

    fn h22(x: f32) -> f32 {
        h21(x)
    }

    fn h23(x: f32) -> f32 {
        h22(x)
    }

    fn h24(x: f32) -> f32 {
        h23(x)
    }

    fn h25(x: f32) -> f32 {
        h24(x)
    }

    fn h26(x: f32) -> f32 {
        h25(x)
    }

    fn h27(x: f32) -> f32 {
        h26(x)
    }

    fn h28(x: f32) -> f32 {
        h27(x)
    }

    fn h29(x: f32) -> f32 {
        h28(x)
    }

    fn h30(x: f32) -> f32 {
        h29(x)
    }

    fn h31(x: f32) -> f32 {
        h30(x)
    }

    fn h32(x: f32) -> f32 {
        h31(x)
    }

    fn h33(x: f32) -> f32 {
        h32(x)
    }

    fn h34(x: f32) -> f32 {
        h33(x)
    }

    fn h35(x: f32) -> f32 {
        h34(x)
    }

    fn h36(x: f32) -> f32 {
        h35(x)
    }

    fn h37(x: f32) -> f32 {
        h36(x)
    }

    fn h38(x: f32) -> f32 {
        h37(x)
    }

    fn h39(x: f32) -> f32 {
        h38(x)
    }

    fn h40(x: f32) -> f32 {
        h39(x)
    }

    fn h41(x: f32) -> f32 {
        h40(x)
    }

    fn h42(x: f32) -> f32 {
        h41(x)
    }

    fn h43(x: f32) -> f32 {
        h42(x)
    }

    fn h44(x: f32) -> f32 {
        h43(x)
    }

    fn h45(x: f32) -> f32 {
        h44(x)
    }

    fn h46(x: f32) -> f32 {
        h45(x)
    }

    fn h47(x: f32) -> f32 {
        h46(x)
    }

    fn h48(x: f32) -> f32 {
        h47(x)
    }

    fn h49(x: f32) -> f32 {
        h48(x)
    }

    fn h50(x: f32) -> f32 {
        h49(x)
    }

    fn h51(x: f32) -> f32 {
        h50(x)
    }

    fn h52(x: f32) -> f32 {
        h51(x)
    }

    fn h53(x: f32) -> f32 {
        h52(x)
    }

    fn h54(x: f32) -> f32 {
        h53(x)
    }

    fn h55(x: f32) -> f32 {
        h54(x)
    }

    fn h56(x: f32) -> f32 {
        h55(x)
    }

    fn h57(x: f32) -> f32 {
        h56(x)
    }

    fn h58(x: f32) -> f32 {
        h57(x)
    }

    fn h59(x: f32) -> f32 {
        h58(x)
    }

    #[sarek::kernel]
    pub fn deep(xs: &mut [f32], ks: &mut [i32]) {
        let i = global_thread_id();
        if i < xs.len() && i < ks.len() {
            let a = xs[i];
            let k = ks[i];
            let n = ----------------------------------------------------------------------------------------------------------------------a;
            let s = a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a;
            let b = a.abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs().abs();
            let p = ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((a))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))));
            let c = if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { if a > 0.0 { a } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 } } else { 1.0 };
            let d = k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k / k;
            ks[i] = d + k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k % k;
            xs[i] = h59(n + s + b + p + c);
        }
    }
}

fn main() {}
