// Pass 3 of the reduce-then-scan: each tile of 2048 vec4s scanned with coalesced loads. Each
// subgroup takes a run of logical thread numbers from a counter (no assumption about which
// invocations share a subgroup); logical thread l owns vec4 l of each of the tile's eight rows
// of 256 (loaded from clamped indices, all in flight together), and each row is scanned
// across the subgroups; then the carry of the tiles before is added. Constant loops written
// out. Needs `subgroups`.
@group(0) @binding(0) var<storage, read> x: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> carry: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<vec4<f32>>;
var<workgroup> taken: atomic<u32>;
var<workgroup> slots: atomic<u32>;
var<workgroup> bases: array<u32, 64>;
var<workgroup> totals: array<array<f32, 8>, 64>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(subgroup_invocation_id) lane: u32) {
    let g = wid.x;
    let rank = subgroupExclusiveAdd(1u);
    let count = subgroupAdd(1u);
    let elect = lane == subgroupBroadcastFirst(lane);
    var mine = 0u;
    if elect {
        mine = atomicAdd(&taken, count);
    }
    let base = subgroupAdd(mine);
    let first = g * 2048u + base + rank;
    let n = arrayLength(&x);
    let in0 = first + 0u < n;
    let l0 = x[select(n - 1u, first + 0u, in0)];
    let in1 = first + 256u < n;
    let l1 = x[select(n - 1u, first + 256u, in1)];
    let in2 = first + 512u < n;
    let l2 = x[select(n - 1u, first + 512u, in2)];
    let in3 = first + 768u < n;
    let l3 = x[select(n - 1u, first + 768u, in3)];
    let in4 = first + 1024u < n;
    let l4 = x[select(n - 1u, first + 1024u, in4)];
    let in5 = first + 1280u < n;
    let l5 = x[select(n - 1u, first + 1280u, in5)];
    let in6 = first + 1536u < n;
    let l6 = x[select(n - 1u, first + 1536u, in6)];
    let in7 = first + 1792u < n;
    let l7 = x[select(n - 1u, first + 1792u, in7)];
    let e0 = select(vec4<f32>(), l0, in0);
    let v0 = vec4(e0.x, e0.x + e0.y, (e0.x + e0.y) + e0.z, ((e0.x + e0.y) + e0.z) + e0.w);
    var before0 = subgroupExclusiveAdd(v0.w);
    let row0 = subgroupAdd(v0.w);
    let e1 = select(vec4<f32>(), l1, in1);
    let v1 = vec4(e1.x, e1.x + e1.y, (e1.x + e1.y) + e1.z, ((e1.x + e1.y) + e1.z) + e1.w);
    var before1 = subgroupExclusiveAdd(v1.w);
    let row1 = subgroupAdd(v1.w);
    let e2 = select(vec4<f32>(), l2, in2);
    let v2 = vec4(e2.x, e2.x + e2.y, (e2.x + e2.y) + e2.z, ((e2.x + e2.y) + e2.z) + e2.w);
    var before2 = subgroupExclusiveAdd(v2.w);
    let row2 = subgroupAdd(v2.w);
    let e3 = select(vec4<f32>(), l3, in3);
    let v3 = vec4(e3.x, e3.x + e3.y, (e3.x + e3.y) + e3.z, ((e3.x + e3.y) + e3.z) + e3.w);
    var before3 = subgroupExclusiveAdd(v3.w);
    let row3 = subgroupAdd(v3.w);
    let e4 = select(vec4<f32>(), l4, in4);
    let v4 = vec4(e4.x, e4.x + e4.y, (e4.x + e4.y) + e4.z, ((e4.x + e4.y) + e4.z) + e4.w);
    var before4 = subgroupExclusiveAdd(v4.w);
    let row4 = subgroupAdd(v4.w);
    let e5 = select(vec4<f32>(), l5, in5);
    let v5 = vec4(e5.x, e5.x + e5.y, (e5.x + e5.y) + e5.z, ((e5.x + e5.y) + e5.z) + e5.w);
    var before5 = subgroupExclusiveAdd(v5.w);
    let row5 = subgroupAdd(v5.w);
    let e6 = select(vec4<f32>(), l6, in6);
    let v6 = vec4(e6.x, e6.x + e6.y, (e6.x + e6.y) + e6.z, ((e6.x + e6.y) + e6.z) + e6.w);
    var before6 = subgroupExclusiveAdd(v6.w);
    let row6 = subgroupAdd(v6.w);
    let e7 = select(vec4<f32>(), l7, in7);
    let v7 = vec4(e7.x, e7.x + e7.y, (e7.x + e7.y) + e7.z, ((e7.x + e7.y) + e7.z) + e7.w);
    var before7 = subgroupExclusiveAdd(v7.w);
    let row7 = subgroupAdd(v7.w);
    if elect {
        let slot = atomicAdd(&slots, 1u);
        bases[slot] = base;
        totals[slot][0] = row0;
        totals[slot][1] = row1;
        totals[slot][2] = row2;
        totals[slot][3] = row3;
        totals[slot][4] = row4;
        totals[slot][5] = row5;
        totals[slot][6] = row6;
        totals[slot][7] = row7;
    }
    workgroupBarrier();
    let nslots = atomicLoad(&slots);
    var rows0 = 0.0;
    var rows1 = 0.0;
    var rows2 = 0.0;
    var rows3 = 0.0;
    var rows4 = 0.0;
    var rows5 = 0.0;
    var rows6 = 0.0;
    var rows7 = 0.0;
    for (var s = 0u; s < nslots; s++) {
        let earlier = bases[s] < base;
        let t0 = totals[s][0];
        rows0 += t0;
        if earlier {
            before0 += t0;
        }
        let t1 = totals[s][1];
        rows1 += t1;
        if earlier {
            before1 += t1;
        }
        let t2 = totals[s][2];
        rows2 += t2;
        if earlier {
            before2 += t2;
        }
        let t3 = totals[s][3];
        rows3 += t3;
        if earlier {
            before3 += t3;
        }
        let t4 = totals[s][4];
        rows4 += t4;
        if earlier {
            before4 += t4;
        }
        let t5 = totals[s][5];
        rows5 += t5;
        if earlier {
            before5 += t5;
        }
        let t6 = totals[s][6];
        rows6 += t6;
        if earlier {
            before6 += t6;
        }
        let t7 = totals[s][7];
        rows7 += t7;
        if earlier {
            before7 += t7;
        }
    }
    var prefix = 0.0;
    if g > 0u {
        prefix = carry[g - 1u];
    }
    if in0 {
        out[first + 0u] = v0 + vec4(prefix + before0);
    }
    prefix += rows0;
    if in1 {
        out[first + 256u] = v1 + vec4(prefix + before1);
    }
    prefix += rows1;
    if in2 {
        out[first + 512u] = v2 + vec4(prefix + before2);
    }
    prefix += rows2;
    if in3 {
        out[first + 768u] = v3 + vec4(prefix + before3);
    }
    prefix += rows3;
    if in4 {
        out[first + 1024u] = v4 + vec4(prefix + before4);
    }
    prefix += rows4;
    if in5 {
        out[first + 1280u] = v5 + vec4(prefix + before5);
    }
    prefix += rows5;
    if in6 {
        out[first + 1536u] = v6 + vec4(prefix + before6);
    }
    prefix += rows6;
    if in7 {
        out[first + 1792u] = v7 + vec4(prefix + before7);
    }
    prefix += rows7;
}
