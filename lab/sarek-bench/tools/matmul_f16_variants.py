#!/usr/bin/env python3
"""Generates WGSL variants of the f16 cooperative-matrix product, measured one a process with
`SAREK_BENCH_WGSL_FILE=file --experiments --only x_matmul_f16` (BENCHMARKS.md, "f16 matrix
product at 212 TFLOP/s"): block, subgroup grid, k-step, one or two buffers in workgroup memory.
Tiles are copied as words (`h4`: vec4<f16>, 8 bytes; `u4`: vec4<u32>, 16 bytes, which the
driver did not run) from the buffers into workgroup arrays of those words, and the matrix loads
read f16 matrices straight from the arrays (the stride in words).

Usage: matmul_f16_variants.py OUT_DIR
"""
import sys

def gen(BM, BN, WGM, WGN, BK, stages, early=True, name="", word="h4"):
    HW = 4 if word == "h4" else 8      # halves per word
    WT = "vec4<f16>" if word == "h4" else "vec4<u32>"
    PADW = 8 // HW                     # pad each row by 8 halves
    NT = 32 * WGM * WGN
    WM, WN = BM // WGM, BN // WGN
    FM, FN = WM // 16, WN // 16
    WA, WB = BK // HW, BN // HW        # words per tile row
    SA, SB = WA + PADW, WB + PADW      # padded strides in words
    TA, TB = BM * WA, BK * WB          # words per tile
    assert TA % NT == 0 and TB % NT == 0, (TA, TB, NT)
    NA, NB = TA // NT, TB // NT
    LA, LB = BM * SA, BK * SB          # words per buffer
    smem = stages * (LA + LB) * 2 * HW
    assert smem <= 49152, smem
    o = []
    w = o.append
    w(f"// An experiment (x_matmul_f16), generated: {name}")
    w(f"// block: {BM}x{BN}")
    w(f"// {NT} invocations ({WGM}x{WGN} subgroups of 32, each a {WM}x{WN} part as {FM}x{FN} f32")
    w(f"// accumulators of 16x16); k-step {BK}; {stages} buffer(s) in workgroup memory ({smem} bytes).")
    w(f"// The tiles are copied as {2 * HW}-byte words ({WT}) into workgroup arrays of {WT}")
    w("// (rows padded by 8 halves); the matrix loads read f16 matrices from them, stride in words.")
    w("enable f16;\nenable wgpu_cooperative_matrix;\n")
    w("struct Params { m: u32 }")
    w(f"@group(0) @binding(0) var<storage, read> a: array<{WT}>;")
    w(f"@group(0) @binding(1) var<storage, read> b: array<{WT}>;")
    w("@group(0) @binding(2) var<storage, read_write> c: array<f32>;")
    w("@group(0) @binding(3) var<uniform> p: Params;")
    w(f"var<workgroup> sa: array<{WT}, {stages * LA}>;")
    w(f"var<workgroup> sb: array<{WT}, {stages * LB}>;\n")
    w(f"@compute @workgroup_size({NT})")
    w("fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) t: u32) {")
    w("    let m = p.m;")
    w(f"    let q = m / {HW}u;")
    w(f"    let row0 = wid.y * {BM}u;")
    w(f"    let col0 = wid.x * {BN}u;")
    w("    let sg = t / 32u;")
    w(f"    let ar = (sg / {WGN}u) * {WM}u;")
    w(f"    let bc = (sg % {WGN}u) * {WN}u;")
    for i in range(FM):
        for j in range(FN):
            w(f"    var acc{i}{j}: coop_mat16x16<f32, C>;")
    # copy mapping: word t + j*NT
    w(f"    let la = (row0 + t / {WA}u) * q + t % {WA}u;")
    w(f"    let pa = (t / {WA}u) * {SA}u + t % {WA}u;")
    w(f"    let lb = (t / {WB}u) * q + col0 / {HW}u + t % {WB}u;")
    w(f"    let pb = (t / {WB}u) * {SB}u + t % {WB}u;")
    ra = NT // WA   # rows of A per round
    rb = NT // WB   # rows of B per round
    w(f"    var ra: array<{WT}, {NA}>;")
    w(f"    var rb: array<{WT}, {NB}>;")
    def loads(kexpr, ind):
        for j in range(NA):
            w(f"{ind}ra[{j}] = a[la + ({kexpr}) / {HW}u + {j * ra}u * q];")
        for j in range(NB):
            w(f"{ind}rb[{j}] = b[lb + ({kexpr} + {j * rb}u) * q];")
    def stores(boff_a, boff_b, ind):
        for j in range(NA):
            w(f"{ind}sa[{boff_a}pa + {j * ra * SA}u] = ra[{j}];")
        for j in range(NB):
            w(f"{ind}sb[{boff_b}pb + {j * rb * SB}u] = rb[{j}];")
    def products(oa, ob, ind):
        for kk in range(0, BK, 16):
            for i in range(FM):
                w(f"{ind}let a{i}_{kk} = coopLoadT<coop_mat16x16<f16, A>>(&sa[{oa}(ar + {16 * i}u) * {SA}u + {kk // HW}u], {SA}u);")
            for j in range(FN):
                w(f"{ind}let b{j}_{kk} = coopLoadT<coop_mat16x16<f16, B>>(&sb[{ob}{kk * SB}u + (bc + {16 * j}u) / {HW}u], {SB}u);")
            for i in range(FM):
                for j in range(FN):
                    w(f"{ind}acc{i}{j} = coopMultiplyAdd(a{i}_{kk}, b{j}_{kk}, acc{i}{j});")
    loads("0u", "    ")
    if stages == 1:
        w(f"    for (var k = 0u; k < m; k += {BK}u) {{")
        stores("", "", "        ")
        w("        workgroupBarrier();")
        w(f"        if (k + {BK}u < m) {{")
        loads(f"k + {BK}u", "            ")
        w("        }")
        products("", "", "        ")
        w("        workgroupBarrier();")
        w("    }")
    else:
        stores("", "", "    ")
        w(f"    if ({BK}u < m) {{")
        loads(f"{BK}u", "        ")
        w("    }")
        w("    workgroupBarrier();")
        w(f"    for (var k = 0u; k < m; k += {BK}u) {{")
        w(f"        let cur = (k / {BK}u) % 2u;")
        w(f"        let oa = cur * {LA}u;")
        w(f"        let ob = cur * {LB}u;")
        w(f"        let na = {LA}u - oa;")
        w(f"        let nb = {LB}u - ob;")
        if early:
            products("oa + ", "ob + ", "        ")
            stores("na + ", "nb + ", "        ")
            w(f"        if (k + {2 * BK}u < m) {{")
            loads(f"k + {2 * BK}u", "            ")
            w("        }")
        else:
            stores("na + ", "nb + ", "        ")
            w(f"        if (k + {2 * BK}u < m) {{")
            loads(f"k + {2 * BK}u", "            ")
            w("        }")
            products("oa + ", "ob + ", "        ")
        w("        workgroupBarrier();")
        w("    }")
    for i in range(FM):
        for j in range(FN):
            w("    {")
            w(f"        let at = &c[(row0 + ar + {16 * i}u) * m + col0 + bc + {16 * j}u];")
            w(f"        let v = acc{i}{j};")
            w("        coopStoreT(v, at, m);")
            w("    }")
    w("}")
    return "\n".join(o) + "\n"

if __name__ == "__main__":
    out = sys.argv[1]
    variants = {
        "h1_128x256_k32_s1": (128, 256, 2, 4, 32, 1, True),
        "h2_128x256_k16_s2": (128, 256, 2, 4, 16, 2, True),
        "h3_128x256_k16_s2_late": (128, 256, 2, 4, 16, 2, False),
        "h4_128x128_w8_k32_s2": (128, 128, 2, 4, 32, 2, True),
        "h5_128x128_w4_k32_s2": (128, 128, 2, 2, 32, 2, True),
        "h6_256x128_k16_s2": (256, 128, 4, 2, 16, 2, True),
        "h7_128x128_w4_k64_s1": (128, 128, 2, 2, 64, 1, True),
        "h8_128x128_w8_k32_s1": (128, 128, 2, 4, 32, 1, True),
        "h9_64x256_w4_k32_s2": (64, 256, 1, 4, 32, 2, True),
        "h10_128x256_k48_s1": (128, 256, 2, 4, 48, 1, True),
        "h11_128x128_w8_k64_s1": (128, 128, 2, 4, 64, 1, True),
        "h12_128x128_w4_k32_s2_late": (128, 128, 2, 2, 32, 2, False),
        "h13_256x128_k32_s1": (256, 128, 4, 2, 32, 1, True),
        "h14_128x256_w16_k32_s1": (128, 256, 4, 4, 32, 1, True),
        "h15_128x256_w16_k16_s2": (128, 256, 4, 4, 16, 2, True),
    }
    for n, v in variants.items():
        open(f"{out}/{n}.wgsl", "w").write(gen(*v, name=n))
    open(f"{out}/u1_128x256_k32_s1.wgsl", "w").write(gen(128, 256, 2, 4, 32, 1, True, name="u1_128x256_k32_s1", word="u4"))
