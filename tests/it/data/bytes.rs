//! Bytes and half-words: `dev.upload_bytes` / `buf.read_bytes` on the host and the packing
//! intrinsics in kernels, on the GPU and the CPU backend against plain Rust.

use crate::common::backends;
use proptest::collection::vec;
use proptest::prelude::*;
use sarek::prelude::*;

use crate::differential::{agree, config, exact, on_backends, on_host, up, zeros, BODY};

/// Every byte of `words` through `unpack4x_u8` / `unpack4x_i8` and back through the packs,
/// and each word's halves through `unpack2x16_float` / `pack2x16_float`.
#[sarek::kernel(workgroup_size = [64])]
fn repack(words: &[u32], out: &mut [u32], halves: &mut [f32]) {
    let i = global_thread_id();
    if i < words.len() {
        let w = words[i];
        let u = unpack4x_u8(w);
        let s = unpack4x_i8(w);
        out[i * 4] = u.x + u.y * 2 + u.z * 3 + u.w * 5;
        out[i * 4 + 1] = (s.x + s.y * 2 + s.z * 3 + s.w * 5) as u32;
        out[i * 4 + 2] = pack4x_u8(UVec4::new(u.w, u.z, u.y, u.x + 256));
        out[i * 4 + 3] = pack4x_i8(s * 3);
        let h = unpack2x16_float(w);
        halves[i * 2] = h.x;
        halves[i * 2 + 1] = h.y;
    }
}

/// `pack2x16_float` of values a half represents within its range.
#[sarek::kernel(workgroup_size = [64])]
fn halves_packed(x: &[f32], out: &mut [u32]) {
    let i = global_thread_id();
    if i * 2 + 1 < x.len() {
        out[i] = pack2x16_float(Vec2::new(x[i * 2], x[i * 2 + 1]));
    }
}

#[backends]
fn bytes_round_trip_through_a_u32_buffer(dev: &Device) {
    let bytes: Vec<u8> = (0..=255u8).chain([7, 9, 11]).collect();
    let buf = dev.upload_bytes(&bytes).unwrap();
    assert_eq!(buf.len(), 65);
    let back = buf.read_bytes().unwrap();
    assert_eq!(&back[..bytes.len()], &bytes[..]);
    assert_eq!(&back[bytes.len()..], &[0]);
}

proptest! {
    #![proptest_config(config(32))]

    #[test]
    fn packing_intrinsics_match_rust(words in vec(any::<u32>(), 1..200)) {
        let n = words.len();
        let outputs = on_backends(|dev| {
            let (mut out, mut halves) = (zeros::<u32>(dev, n * 4), zeros::<f32>(dev, n * 2));
            repack.launch(dev, Grid::cover(n), &up(dev, &words), &mut out, &mut halves).unwrap();
            (out.read().unwrap(), halves.read().unwrap())
        });
        let (mut out, mut halves) = (vec![0u32; n * 4], vec![0f32; n * 2]);
        on_host(n, 64, || repack::body(&words, &mut out, &mut halves));
        let (ints, floats): (Vec<_>, Vec<_>) = outputs
            .into_iter()
            .map(|(b, (o, h))| ((b, o), (b, h)))
            .unzip();
        agree("repack", &ints, Some((BODY, &out)), exact, |k| format!("output {} of word {:#x}", k % 4, words[k / 4]))?;
        // A half NaN may come back with another payload; everything else is exact.
        agree("repack", &floats, Some((BODY, &halves)), |_, g: &f32, e: &f32| g.to_bits() == e.to_bits() || (g.is_nan() && e.is_nan()), |k| format!("half {} of word {:#x}", k % 2, words[k / 2]))?;
    }

    #[test]
    fn halves_pack_to_nearest(
        x in vec(prop_oneof![
            3 => -65504.0f32..65504.0,
            2 => -2.0f32..2.0,
            1 => prop::sample::select(vec![0.0f32, -0.0, 1.0, 0.5, 65504.0, -65504.0, 6.1035156e-5, 1.0 + 1.0 / 2048.0]),
        ], 2..200),
    ) {
        let n = x.len() / 2;
        let outputs = on_backends(|dev| {
            let mut out = zeros::<u32>(dev, n);
            halves_packed.launch(dev, Grid::cover(n), &up(dev, &x), &mut out).unwrap();
            out.read().unwrap()
        });
        let mut expected = vec![0u32; n];
        on_host(n, 64, || halves_packed::body(&x, &mut expected));
        agree("halves_packed", &outputs, Some((BODY, &expected)), exact, |k| format!("pack2x16_float({:?}, {:?})", x[2 * k], x[2 * k + 1]))?;
    }
}
