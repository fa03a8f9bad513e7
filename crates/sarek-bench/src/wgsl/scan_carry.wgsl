// Pass 2 of the reduce-then-scan, on one workgroup: the inclusive scan of the tile sums, in
// chunks of 8192, each thread 32 consecutive sums of a chunk (loaded from clamped indices so
// that all 32 loads are in flight together), a Hillis-Steele scan of the threads' totals in
// workgroup memory, and the total carried from chunk to chunk. Constant loops written out.
@group(0) @binding(0) var<storage, read> sums: array<f32>;
@group(0) @binding(1) var<storage, read_write> carry: array<f32>;
var<workgroup> a: array<f32, 256>;
var<workgroup> b: array<f32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_id) lid: vec3<u32>) {
    let t = lid.x;
    let m = arrayLength(&sums);
    var total = 0.0;
    for (var c0 = 0u; c0 < m; c0 += 8192u) {
        let first = c0 + t * 32u;
        let in0 = first + 0u < m;
        let l0 = sums[select(m - 1u, first + 0u, in0)];
        let in1 = first + 1u < m;
        let l1 = sums[select(m - 1u, first + 1u, in1)];
        let in2 = first + 2u < m;
        let l2 = sums[select(m - 1u, first + 2u, in2)];
        let in3 = first + 3u < m;
        let l3 = sums[select(m - 1u, first + 3u, in3)];
        let in4 = first + 4u < m;
        let l4 = sums[select(m - 1u, first + 4u, in4)];
        let in5 = first + 5u < m;
        let l5 = sums[select(m - 1u, first + 5u, in5)];
        let in6 = first + 6u < m;
        let l6 = sums[select(m - 1u, first + 6u, in6)];
        let in7 = first + 7u < m;
        let l7 = sums[select(m - 1u, first + 7u, in7)];
        let in8 = first + 8u < m;
        let l8 = sums[select(m - 1u, first + 8u, in8)];
        let in9 = first + 9u < m;
        let l9 = sums[select(m - 1u, first + 9u, in9)];
        let in10 = first + 10u < m;
        let l10 = sums[select(m - 1u, first + 10u, in10)];
        let in11 = first + 11u < m;
        let l11 = sums[select(m - 1u, first + 11u, in11)];
        let in12 = first + 12u < m;
        let l12 = sums[select(m - 1u, first + 12u, in12)];
        let in13 = first + 13u < m;
        let l13 = sums[select(m - 1u, first + 13u, in13)];
        let in14 = first + 14u < m;
        let l14 = sums[select(m - 1u, first + 14u, in14)];
        let in15 = first + 15u < m;
        let l15 = sums[select(m - 1u, first + 15u, in15)];
        let in16 = first + 16u < m;
        let l16 = sums[select(m - 1u, first + 16u, in16)];
        let in17 = first + 17u < m;
        let l17 = sums[select(m - 1u, first + 17u, in17)];
        let in18 = first + 18u < m;
        let l18 = sums[select(m - 1u, first + 18u, in18)];
        let in19 = first + 19u < m;
        let l19 = sums[select(m - 1u, first + 19u, in19)];
        let in20 = first + 20u < m;
        let l20 = sums[select(m - 1u, first + 20u, in20)];
        let in21 = first + 21u < m;
        let l21 = sums[select(m - 1u, first + 21u, in21)];
        let in22 = first + 22u < m;
        let l22 = sums[select(m - 1u, first + 22u, in22)];
        let in23 = first + 23u < m;
        let l23 = sums[select(m - 1u, first + 23u, in23)];
        let in24 = first + 24u < m;
        let l24 = sums[select(m - 1u, first + 24u, in24)];
        let in25 = first + 25u < m;
        let l25 = sums[select(m - 1u, first + 25u, in25)];
        let in26 = first + 26u < m;
        let l26 = sums[select(m - 1u, first + 26u, in26)];
        let in27 = first + 27u < m;
        let l27 = sums[select(m - 1u, first + 27u, in27)];
        let in28 = first + 28u < m;
        let l28 = sums[select(m - 1u, first + 28u, in28)];
        let in29 = first + 29u < m;
        let l29 = sums[select(m - 1u, first + 29u, in29)];
        let in30 = first + 30u < m;
        let l30 = sums[select(m - 1u, first + 30u, in30)];
        let in31 = first + 31u < m;
        let l31 = sums[select(m - 1u, first + 31u, in31)];
        var run = 0.0;
        run += select(0.0, l0, in0);
        let v0 = run;
        run += select(0.0, l1, in1);
        let v1 = run;
        run += select(0.0, l2, in2);
        let v2 = run;
        run += select(0.0, l3, in3);
        let v3 = run;
        run += select(0.0, l4, in4);
        let v4 = run;
        run += select(0.0, l5, in5);
        let v5 = run;
        run += select(0.0, l6, in6);
        let v6 = run;
        run += select(0.0, l7, in7);
        let v7 = run;
        run += select(0.0, l8, in8);
        let v8 = run;
        run += select(0.0, l9, in9);
        let v9 = run;
        run += select(0.0, l10, in10);
        let v10 = run;
        run += select(0.0, l11, in11);
        let v11 = run;
        run += select(0.0, l12, in12);
        let v12 = run;
        run += select(0.0, l13, in13);
        let v13 = run;
        run += select(0.0, l14, in14);
        let v14 = run;
        run += select(0.0, l15, in15);
        let v15 = run;
        run += select(0.0, l16, in16);
        let v16 = run;
        run += select(0.0, l17, in17);
        let v17 = run;
        run += select(0.0, l18, in18);
        let v18 = run;
        run += select(0.0, l19, in19);
        let v19 = run;
        run += select(0.0, l20, in20);
        let v20 = run;
        run += select(0.0, l21, in21);
        let v21 = run;
        run += select(0.0, l22, in22);
        let v22 = run;
        run += select(0.0, l23, in23);
        let v23 = run;
        run += select(0.0, l24, in24);
        let v24 = run;
        run += select(0.0, l25, in25);
        let v25 = run;
        run += select(0.0, l26, in26);
        let v26 = run;
        run += select(0.0, l27, in27);
        let v27 = run;
        run += select(0.0, l28, in28);
        let v28 = run;
        run += select(0.0, l29, in29);
        let v29 = run;
        run += select(0.0, l30, in30);
        let v30 = run;
        run += select(0.0, l31, in31);
        let v31 = run;
        a[t] = run;
        workgroupBarrier();
        var from_a = true;
        for (var offset = 1u; offset < 256u; offset *= 2u) {
            if from_a {
                b[t] = select(a[t], a[t] + a[t - offset], t >= offset);
            } else {
                a[t] = select(b[t], b[t] + b[t - offset], t >= offset);
            }
            workgroupBarrier();
            from_a = !from_a;
        }
        var before = 0.0;
        if t > 0u {
            before = select(b[t - 1u], a[t - 1u], from_a);
        }
        let chunk = select(b[255], a[255], from_a);
        let add = total + before;
        if in0 {
            carry[first + 0u] = v0 + add;
        }
        if in1 {
            carry[first + 1u] = v1 + add;
        }
        if in2 {
            carry[first + 2u] = v2 + add;
        }
        if in3 {
            carry[first + 3u] = v3 + add;
        }
        if in4 {
            carry[first + 4u] = v4 + add;
        }
        if in5 {
            carry[first + 5u] = v5 + add;
        }
        if in6 {
            carry[first + 6u] = v6 + add;
        }
        if in7 {
            carry[first + 7u] = v7 + add;
        }
        if in8 {
            carry[first + 8u] = v8 + add;
        }
        if in9 {
            carry[first + 9u] = v9 + add;
        }
        if in10 {
            carry[first + 10u] = v10 + add;
        }
        if in11 {
            carry[first + 11u] = v11 + add;
        }
        if in12 {
            carry[first + 12u] = v12 + add;
        }
        if in13 {
            carry[first + 13u] = v13 + add;
        }
        if in14 {
            carry[first + 14u] = v14 + add;
        }
        if in15 {
            carry[first + 15u] = v15 + add;
        }
        if in16 {
            carry[first + 16u] = v16 + add;
        }
        if in17 {
            carry[first + 17u] = v17 + add;
        }
        if in18 {
            carry[first + 18u] = v18 + add;
        }
        if in19 {
            carry[first + 19u] = v19 + add;
        }
        if in20 {
            carry[first + 20u] = v20 + add;
        }
        if in21 {
            carry[first + 21u] = v21 + add;
        }
        if in22 {
            carry[first + 22u] = v22 + add;
        }
        if in23 {
            carry[first + 23u] = v23 + add;
        }
        if in24 {
            carry[first + 24u] = v24 + add;
        }
        if in25 {
            carry[first + 25u] = v25 + add;
        }
        if in26 {
            carry[first + 26u] = v26 + add;
        }
        if in27 {
            carry[first + 27u] = v27 + add;
        }
        if in28 {
            carry[first + 28u] = v28 + add;
        }
        if in29 {
            carry[first + 29u] = v29 + add;
        }
        if in30 {
            carry[first + 30u] = v30 + add;
        }
        if in31 {
            carry[first + 31u] = v31 + add;
        }
        total += chunk;
        workgroupBarrier();
    }
}
