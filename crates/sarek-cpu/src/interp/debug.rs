//! The debug channel on the CPU: the same words the WGSL writes (`sarek_ir::ir::debug`), so
//! the runtime reads one format whatever ran the kernel.

use std::sync::atomic::{AtomicU32, Ordering};

use super::value::Value;
use crate::ir::debug::{self, DebugKind, DebugSite};
use crate::ir::Scalar;

/// Appends the words of `v`: floats as their `f32` bits, `bool` as 0 or 1, one word per
/// vector component.
pub(super) fn push_words(out: &mut Vec<u32>, v: &Value) {
    let word = |s: Scalar, bits: u32| match s {
        Scalar::F16 => half::f16::from_bits(bits as u16).to_f32().to_bits(),
        Scalar::Bool => u32::from(bits != 0),
        _ => bits,
    };
    match v {
        Value::F32(f) => out.push(f.to_bits()),
        Value::I32(i) => out.push(*i as u32),
        Value::U32(u) => out.push(*u),
        Value::Bool(b) => out.push(u32::from(*b)),
        Value::F16(h) => out.push(h.to_f32().to_bits()),
        Value::Vector(s, n, bits) => {
            out.extend(bits[..usize::from(*n)].iter().map(|&b| word(*s, b)))
        }
        // The front end refuses other types.
        Value::Composite(_) | Value::I64(_) | Value::U64(_) => {}
    }
}

/// Writes a record as the WGSL does: a print appended where it fits (else counted as
/// dropped), a failed assertion into the slot if it is the first.
pub(super) fn write(channel: &[AtomicU32], kind: DebugKind, sites: &[DebugSite], words: &[u32]) {
    if channel.len() < debug::HEADER {
        return;
    }
    let n = words.len();
    match kind {
        DebugKind::Print { .. } => {
            let start = debug::records_start(sites);
            let at = (channel[debug::NEXT].fetch_add(n as u32, Ordering::Relaxed) as usize)
                .saturating_add(start);
            match channel.get(at..at.saturating_add(n)) {
                Some(slot) if at >= start => {
                    for (w, v) in slot.iter().zip(words) {
                        w.store(*v, Ordering::Relaxed);
                    }
                }
                _ => {
                    channel[debug::DROPPED].fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        DebugKind::Assert => {
            let site = words.first().copied().unwrap_or(0);
            let first = channel[debug::FAILED]
                .compare_exchange(0, site + 1, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok();
            if first {
                for (w, v) in channel.iter().skip(debug::HEADER).zip(words) {
                    w.store(*v, Ordering::Relaxed);
                }
            }
        }
    }
}
