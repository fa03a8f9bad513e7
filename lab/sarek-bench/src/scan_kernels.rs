//! Variants of the three passes of a reduce-then-scan (tiles of 2048 `Vec4`s, 8192 floats,
//! on 256 threads: eight `Vec4`s per thread), measured against each other and against the
//! library's passes (`sarek::scan`, which the suite's `scan` row and these experiments call, not
//! copy) by `--experiments --only scan3`.

use std::sync::atomic::{AtomicU32, Ordering};

use sarek::Vec4;

/// `sarek::scan::scan_apply_sg` with each logical thread owning two consecutive `Vec4`s of each of
/// four rows of 512: half as many scans across the subgroups.
#[sarek::kernel(workgroup_size = [256])]
pub fn scan_apply_pairs(x: &[Vec4], carry: &[f32], out: &mut [Vec4]) {
    let taken = shared::<[AtomicU32; 1]>();
    let slots = shared::<[AtomicU32; 1]>();
    let bases = shared::<[u32; 64]>();
    let totals = shared::<[[f32; 4]; 64]>();
    let g = block_idx_x();
    let rank = subgroup_exclusive_add(1u32);
    let count = subgroup_add(1u32);
    let mut mine = 0u32;
    if subgroup_elect() {
        mine = taken[0].fetch_add(count, Ordering::Relaxed);
    }
    let base = subgroup_add(mine);
    let l = (base + rank) as usize;
    let first = g * 2048 + l * 2;
    let n = x.len();
    let mut v = [Vec4::ZERO; 8];
    for k in 0..8 {
        let at = first + (k / 2) * 512 + k % 2;
        if at < n {
            v[k] = x[at];
        }
    }
    let mut before = [0.0f32; 4];
    let mut row = [0.0f32; 4];
    for r in 0..4 {
        let e = v[r * 2];
        let p1 = e.x + e.y;
        let p2 = p1 + e.z;
        let p3 = p2 + e.w;
        v[r * 2] = Vec4::new(e.x, p1, p2, p3);
        let f = v[r * 2 + 1];
        let q0 = p3 + f.x;
        let q1 = q0 + f.y;
        let q2 = q1 + f.z;
        let q3 = q2 + f.w;
        v[r * 2 + 1] = Vec4::new(q0, q1, q2, q3);
        before[r] = subgroup_exclusive_add(q3);
        row[r] = subgroup_add(q3);
    }
    if subgroup_elect() {
        let slot = slots[0].fetch_add(1, Ordering::Relaxed) as usize;
        bases[slot] = base;
        for r in 0..4 {
            totals[slot][r] = row[r];
        }
    }
    block_barrier();
    let nslots = slots[0].load(Ordering::Relaxed) as usize;
    let mut rows = [0.0f32; 4];
    let mut s = 0;
    while s < nslots {
        let earlier = bases[s] < base;
        for r in 0..4 {
            let tr = totals[s][r];
            rows[r] += tr;
            if earlier {
                before[r] += tr;
            }
        }
        s += 1;
    }
    let mut prefix = if g > 0 { carry[g - 1] } else { 0.0 };
    for r in 0..4 {
        let add = Vec4::splat(prefix + before[r]);
        for j in 0..2 {
            let at = first + r * 512 + j;
            if at < n {
                out[at] = v[r * 2 + j] + add;
            }
        }
        prefix += rows[r];
    }
}

/// Pass 1 for tiles of 4096 `Vec4`s: sixteen coalesced loads per thread, then a tree.
#[sarek::kernel(workgroup_size = [256])]
pub fn scan_reduce16(x: &[Vec4], sums: &mut [f32]) {
    let tree = shared::<[f32; 256]>();
    let t = thread_idx_x();
    let first = block_idx_x() * 4096 + t;
    let n = x.len();
    let mut v = [Vec4::ZERO; 16];
    for k in 0..16 {
        if first + k * 256 < n {
            v[k] = x[first + k * 256];
        }
    }
    let s0 = ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
    let s1 = ((v[8] + v[9]) + (v[10] + v[11])) + ((v[12] + v[13]) + (v[14] + v[15]));
    let s = s0 + s1;
    tree[t] = (s.x + s.y) + (s.z + s.w);
    block_barrier();
    let mut h = 128;
    while h > 0 {
        if t < h {
            tree[t] += tree[t + h];
        }
        block_barrier();
        h /= 2;
    }
    if t == 0 {
        sums[block_idx_x()] = tree[0];
    }
}

/// `sarek::scan::scan_apply_sg` for tiles of 4096 `Vec4`s: sixteen rows.
#[sarek::kernel(workgroup_size = [256])]
pub fn scan_apply_rows16(x: &[Vec4], carry: &[f32], out: &mut [Vec4]) {
    let taken = shared::<[AtomicU32; 1]>();
    let slots = shared::<[AtomicU32; 1]>();
    let bases = shared::<[u32; 64]>();
    let totals = shared::<[[f32; 16]; 64]>();
    let g = block_idx_x();
    let rank = subgroup_exclusive_add(1u32);
    let count = subgroup_add(1u32);
    let mut mine = 0u32;
    if subgroup_elect() {
        mine = taken[0].fetch_add(count, Ordering::Relaxed);
    }
    let base = subgroup_add(mine);
    let l = (base + rank) as usize;
    let first = g * 4096 + l;
    let n = x.len();
    let mut v = [Vec4::ZERO; 16];
    for k in 0..16 {
        if first + k * 256 < n {
            v[k] = x[first + k * 256];
        }
    }
    let mut before = [0.0f32; 16];
    let mut row = [0.0f32; 16];
    for k in 0..16 {
        let e = v[k];
        let p1 = e.x + e.y;
        let p2 = p1 + e.z;
        let p3 = p2 + e.w;
        v[k] = Vec4::new(e.x, p1, p2, p3);
        before[k] = subgroup_exclusive_add(p3);
        row[k] = subgroup_add(p3);
    }
    if subgroup_elect() {
        let slot = slots[0].fetch_add(1, Ordering::Relaxed) as usize;
        bases[slot] = base;
        for k in 0..16 {
            totals[slot][k] = row[k];
        }
    }
    block_barrier();
    let nslots = slots[0].load(Ordering::Relaxed) as usize;
    let mut rows = [0.0f32; 16];
    let mut s = 0;
    while s < nslots {
        let earlier = bases[s] < base;
        for k in 0..16 {
            let tk = totals[s][k];
            rows[k] += tk;
            if earlier {
                before[k] += tk;
            }
        }
        s += 1;
    }
    let mut prefix = if g > 0 { carry[g - 1] } else { 0.0 };
    for k in 0..16 {
        if first + k * 256 < n {
            out[first + k * 256] = v[k] + Vec4::splat(prefix + before[k]);
        }
        prefix += rows[k];
    }
}

/// `sarek::scan::scan_apply_sg` with whole tiles apart (`x_bisect`): a workgroup whose tile
/// lies wholly inside `x` (every workgroup but perhaps the last) loads and stores without a
/// per-element comparison with the length; only a partial last tile clamps and guards.
#[sarek::kernel(workgroup_size = [256])]
pub fn scan_apply_whole(x: &[Vec4], carry: &[f32], out: &mut [Vec4]) {
    let taken = shared::<[AtomicU32; 1]>();
    let slots = shared::<[AtomicU32; 1]>();
    let bases = shared::<[u32; 64]>();
    let totals = shared::<[[f32; 8]; 64]>();
    let g = block_idx_x();
    let rank = subgroup_exclusive_add(1u32);
    let count = subgroup_add(1u32);
    let mut mine = 0u32;
    if subgroup_elect() {
        mine = taken[0].fetch_add(count, Ordering::Relaxed);
    }
    let base = subgroup_add(mine);
    let l = (base + rank) as usize;
    let first = g * 2048 + l;
    let n = x.len();
    // The tile starts inside `x` (there are ceil(n / 2048) workgroups), so no overflow.
    let whole = n - g * 2048 >= 2048;
    let mut v = [Vec4::ZERO; 8];
    if whole {
        for k in 0..8 {
            v[k] = x[first + k * 256];
        }
    } else {
        for k in 0..8 {
            let at = if first + k * 256 < n {
                first + k * 256
            } else {
                n - 1
            };
            let value = x[at];
            v[k] = if first + k * 256 < n {
                value
            } else {
                Vec4::ZERO
            };
        }
    }
    let mut before = [0.0f32; 8];
    let mut row = [0.0f32; 8];
    for k in 0..8 {
        let e = v[k];
        let p1 = e.x + e.y;
        let p2 = p1 + e.z;
        let p3 = p2 + e.w;
        v[k] = Vec4::new(e.x, p1, p2, p3);
        before[k] = subgroup_exclusive_add(p3);
        row[k] = subgroup_add(p3);
    }
    if subgroup_elect() {
        let slot = slots[0].fetch_add(1, Ordering::Relaxed) as usize;
        bases[slot] = base;
        for k in 0..8 {
            totals[slot][k] = row[k];
        }
    }
    block_barrier();
    let nslots = slots[0].load(Ordering::Relaxed) as usize;
    let mut rows = [0.0f32; 8];
    let mut s = 0;
    while s < nslots {
        let earlier = bases[s] < base;
        for k in 0..8 {
            let tk = totals[s][k];
            rows[k] += tk;
            if earlier {
                before[k] += tk;
            }
        }
        s += 1;
    }
    let mut prefix = if g > 0 { carry[g - 1] } else { 0.0 };
    if whole {
        for k in 0..8 {
            out[first + k * 256] = v[k] + Vec4::splat(prefix + before[k]);
            prefix += rows[k];
        }
    } else {
        for k in 0..8 {
            if first + k * 256 < n {
                out[first + k * 256] = v[k] + Vec4::splat(prefix + before[k]);
            }
            prefix += rows[k];
        }
    }
}

/// [`scan_apply_whole`] told the number of whole tiles by a scalar parameter (`whole_tiles`,
/// `n / 2048`) instead of comparing with the length (`x_bisect`).
#[sarek::kernel(workgroup_size = [256])]
pub fn scan_apply_whole_p(x: &[Vec4], carry: &[f32], out: &mut [Vec4], whole_tiles: u32) {
    let taken = shared::<[AtomicU32; 1]>();
    let slots = shared::<[AtomicU32; 1]>();
    let bases = shared::<[u32; 64]>();
    let totals = shared::<[[f32; 8]; 64]>();
    let g = block_idx_x();
    let rank = subgroup_exclusive_add(1u32);
    let count = subgroup_add(1u32);
    let mut mine = 0u32;
    if subgroup_elect() {
        mine = taken[0].fetch_add(count, Ordering::Relaxed);
    }
    let base = subgroup_add(mine);
    let l = (base + rank) as usize;
    let first = g * 2048 + l;
    let whole = (g as u32) < whole_tiles;
    let mut v = [Vec4::ZERO; 8];
    if whole {
        for k in 0..8 {
            v[k] = x[first + k * 256];
        }
    } else {
        let n = x.len();
        for k in 0..8 {
            let at = if first + k * 256 < n {
                first + k * 256
            } else {
                n - 1
            };
            let value = x[at];
            v[k] = if first + k * 256 < n {
                value
            } else {
                Vec4::ZERO
            };
        }
    }
    let mut before = [0.0f32; 8];
    let mut row = [0.0f32; 8];
    for k in 0..8 {
        let e = v[k];
        let p1 = e.x + e.y;
        let p2 = p1 + e.z;
        let p3 = p2 + e.w;
        v[k] = Vec4::new(e.x, p1, p2, p3);
        before[k] = subgroup_exclusive_add(p3);
        row[k] = subgroup_add(p3);
    }
    if subgroup_elect() {
        let slot = slots[0].fetch_add(1, Ordering::Relaxed) as usize;
        bases[slot] = base;
        for k in 0..8 {
            totals[slot][k] = row[k];
        }
    }
    block_barrier();
    let nslots = slots[0].load(Ordering::Relaxed) as usize;
    let mut rows = [0.0f32; 8];
    let mut s = 0;
    while s < nslots {
        let earlier = bases[s] < base;
        for k in 0..8 {
            let tk = totals[s][k];
            rows[k] += tk;
            if earlier {
                before[k] += tk;
            }
        }
        s += 1;
    }
    let mut prefix = if g > 0 { carry[g - 1] } else { 0.0 };
    if whole {
        for k in 0..8 {
            out[first + k * 256] = v[k] + Vec4::splat(prefix + before[k]);
            prefix += rows[k];
        }
    } else {
        let n = x.len();
        for k in 0..8 {
            if first + k * 256 < n {
                out[first + k * 256] = v[k] + Vec4::splat(prefix + before[k]);
            }
            prefix += rows[k];
        }
    }
}
