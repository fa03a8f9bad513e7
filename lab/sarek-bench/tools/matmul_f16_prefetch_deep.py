#!/usr/bin/env python3
"""WGSL variants of the 128x256 f16 product (steps of 32 along k, one buffer of vec4<f16> words
in workgroup memory, rows padded by two words) with deeper prefetching, for the f16mm2 call:
`sg` subgroups (8 of 64x64 or 16 of 32x64), each step's words loaded `dist` steps ahead into
`dist` register sets (the loop unrolled by `dist`, later steps under a uniform `if` when m is
not a multiple of 32·dist), optionally the workgroups remapped in groups of `swz` block rows
(L2 reuse), optionally every operand of a step loaded before its products (`hoist`); and
(`wgsl_global`, the second call) one operand double-buffered in workgroup memory, the other's
matrices loaded straight from the storage buffer. All measured at or below the row (212).

Usage: matmul_f16_prefetch_deep.py OUT_DIR (writes one file per variant; run them with
SAREK_BENCH_WGSL_FILE, see BENCHMARKS.md, "f16 matrix product: deeper prefetch")."""
import sys

def wgsl(name, sg, dist, swz=0, hoist=False):
    T = 32 * sg
    na, nb = 1024 // T, 2048 // T          # words a thread copies of a's and b's tiles
    arow, brow = T // 8, T // 64           # rows one pass of the threads covers
    RS = 128 // (sg // 4)                  # rows of c a subgroup computes
    mi = RS // 16
    o = []; w = o.append
    w(f'// {name}: 128x256 block, {sg} subgroups of {RS}x64, k-step 32, prefetch {dist} steps ahead'
      f'{", workgroups in groups of %d block rows" % swz if swz else ""}{", operands hoisted" if hoist else ""}.')
    w('// block: 128x256')
    w('enable f16;\nenable wgpu_cooperative_matrix;\n')
    w('struct Params { m: u32 }')
    w('@group(0) @binding(0) var<storage, read> a: array<vec4<f16>>;')
    w('@group(0) @binding(1) var<storage, read> b: array<vec4<f16>>;')
    w('@group(0) @binding(2) var<storage, read_write> c: array<f32>;')
    w('@group(0) @binding(3) var<uniform> p: Params;')
    w('var<workgroup> sa: array<vec4<f16>, 1280>;')
    w('var<workgroup> sb: array<vec4<f16>, 2112>;\n')
    w(f'@compute @workgroup_size({T})')
    w('fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) t: u32) {')
    w('    let m = p.m;')
    if swz:
        w('    let nx = m / 256u;')
        w('    let ny = m / 128u;')
        w('    let lin = wid.y * nx + wid.x;')
        w(f'    let per = {swz}u * nx;')
        w(f'    let first = (lin / per) * {swz}u;')
        w(f'    let gs = min(ny - first, {swz}u);')
        w('    let r = lin % per;')
        w('    let row0 = (first + r % gs) * 128u;')
        w('    let col0 = (r / gs) * 256u;')
    else:
        w('    let row0 = wid.y * 128u;')
        w('    let col0 = wid.x * 256u;')
    w('    let sg = t / 32u;')
    w(f'    let ar = (sg / 4u) * {RS}u;')
    w('    let bc = (sg % 4u) * 16u;')
    for i in range(mi):
        for j in range(4):
            w(f'    var c{i}{j}: coop_mat16x16<f32, C>;')
    w('    let q = m / 4u;')
    w('    let la = (row0 + t / 8u) * q + t % 8u;')
    w('    let pa = (t / 8u) * 10u + t % 8u;')
    w('    let lb = (t / 64u) * q + col0 / 4u + t % 64u;')
    w('    let pb = (t / 64u) * 66u + t % 64u;')
    def loads(s, kexpr, decl, ind):
        kw = 'var ' if decl else ''
        for j in range(na):
            w(f'{ind}{kw}ra{s}{j} = a[la + ({kexpr}) / 4u + {arow * j}u * q];')
        for j in range(nb):
            w(f'{ind}{kw}rb{s}{j} = b[lb + ({kexpr} + {brow * j}u) * q];')
    for s in range(dist):
        loads(s, f'min({32 * s}u, m - 32u)' if s else '0u', True, '    ')
    def step(s, kbase, ind):
        for j in range(na):
            w(f'{ind}sa[pa + {arow * 10 * j}u] = ra{s}{j};')
        for j in range(nb):
            w(f'{ind}sb[pb + {brow * 66 * j}u] = rb{s}{j};')
        w(f'{ind}workgroupBarrier();')
        w(f'{ind}let kn{s} = min({kbase} + {32 * dist}u, m - 32u);')
        loads(s, f'kn{s}', False, ind)
        def opl(h):
            for i in range(mi):
                w(f'{ind}let a{i}_{s}{h} = coopLoadT<coop_mat16x16<f16, A>>(&sa[(ar + {16 * i}u) * 10u + {4 * h}u], 10u);')
            for j in range(4):
                w(f'{ind}let b{j}_{s}{h} = coopLoadT<coop_mat16x16<f16, B>>(&sb[{1056 * h}u + bc + {4 * j}u], 66u);')
        def mma(h):
            for i in range(mi):
                for j in range(4):
                    w(f'{ind}c{i}{j} = coopMultiplyAdd(a{i}_{s}{h}, b{j}_{s}{h}, c{i}{j});')
        if hoist:
            opl(0); opl(1); mma(0); mma(1)
        else:
            opl(0); mma(0); opl(1); mma(1)
        w(f'{ind}workgroupBarrier();')
    guard = dist == 3
    w(f'    for (var k = 0u; k < m; k += {32 * dist}u) {{')
    for s in range(dist):
        kb = 'k' if s == 0 else f'(k + {32 * s}u)'
        if s and guard:
            w(f'        if (k + {32 * s}u < m) {{')
            step(s, kb, '            ')
            w('        }')
        else:
            w('        {')
            step(s, kb, '        ')
            w('        }')
    w('    }')
    for i in range(mi):
        for j in range(4):
            w('    {')
            w(f'        let at = &c[(row0 + ar + {16 * i}u) * m + col0 + bc * 4u + {16 * j}u];')
            w(f'        let v = c{i}{j};')
            w('        coopStoreT(v, at, m);')
            w('    }')
    w('}')
    return '\n'.join(o) + '\n'

def wgsl_global(name, smem, regs, fpre):
    """8 subgroups of 64x64; the operand `smem` ('a', 'b' or '') staged through two workgroup
    buffers (one barrier a step; its words `regs` steps ahead in registers), the other
    operand's matrices loaded straight from the storage buffer, one step ahead when `fpre`."""
    o = []; w = o.append
    glob = 'b' if smem == 'a' else 'a' if smem == 'b' else 'ab'
    w(f'// {name}: 128x256 block, 8 subgroups of 64x64, k-step 32; {smem or "no operand"} through two '
      f'workgroup buffers (words {regs} steps ahead), {glob} matrices from the storage buffer'
      f'{" one step ahead" if fpre else ""}.')
    w('// block: 128x256')
    w('enable f16;\nenable wgpu_cooperative_matrix;\n')
    w('struct Params { m: u32 }')
    w('@group(0) @binding(0) var<storage, read> a: array<vec4<f16>>;')
    w('@group(0) @binding(1) var<storage, read> b: array<vec4<f16>>;')
    w('@group(0) @binding(2) var<storage, read_write> c: array<f32>;')
    w('@group(0) @binding(3) var<uniform> p: Params;')
    if smem == 'a':
        w('var<workgroup> sa: array<vec4<f16>, 2560>;')
    if smem == 'b':
        w('var<workgroup> sb: array<vec4<f16>, 4224>;')
    w('\n@compute @workgroup_size(256)')
    w('fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) t: u32) {')
    w('    let m = p.m;')
    w('    let row0 = wid.y * 128u;')
    w('    let col0 = wid.x * 256u;')
    w('    let sg = t / 32u;')
    w('    let ar = (sg / 4u) * 64u;')
    w('    let bc = (sg % 4u) * 16u;')
    for i in range(4):
        for j in range(4):
            w(f'    var c{i}{j}: coop_mat16x16<f32, C>;')
    w('    let q = m / 4u;')
    # staged operand: words a thread copies
    buf = 0
    if smem == 'a':
        n, lo, po, rowstep, poff, buf, arr = 4, '(row0 + t / 8u) * q + t % 8u', '(t / 8u) * 10u + t % 8u', 32, 320, 1280, 'a'
        def gaddr(s, kexpr, j): return f'a[lo + ({kexpr}) / 4u + {32 * j}u * q]'
    elif smem == 'b':
        n, lo, po, rowstep, poff, buf, arr = 8, '(t / 64u) * q + col0 / 4u + t % 64u', '(t / 64u) * 66u + t % 64u', 4, 264, 2112, 'b'
        def gaddr(s, kexpr, j): return f'b[lo + ({kexpr} + {4 * j}u) * q]'
    if smem:
        w(f'    let lo = {lo};')
        w(f'    let po = {po};')
        sm = 's' + smem
    def fa(i, h, kexpr):
        return f'coopLoadT<coop_mat16x16<f16, A>>(&a[(row0 + ar + {16 * i}u) * q + ({kexpr}) / 4u + {4 * h}u], q)'
    def fb(j, h, kexpr):
        return f'coopLoadT<coop_mat16x16<f16, B>>(&b[(({kexpr}) + {16 * h}u) * q + col0 / 4u + bc + {4 * j}u], q)'
    def sa_(i, h, bo):
        return f'coopLoadT<coop_mat16x16<f16, A>>(&sa[{bo}u + (ar + {16 * i}u) * 10u + {4 * h}u], 10u)'
    def sb_(j, h, bo):
        return f'coopLoadT<coop_mat16x16<f16, B>>(&sb[{bo + 1056 * h}u + bc + {4 * j}u], 66u)'
    gA = 'a' in glob; gB = 'b' in glob
    # prologue
    if smem:
        for j in range(n):
            w(f'    {sm}[po + {poff * j}u] = {gaddr(0, "0u", j)};')
        for s in range(regs):
            for j in range(n):
                w(f'    var r{s}{j} = {gaddr(s, f"min({32 * (s + 1)}u, m - 32u)", j)};')
    if fpre:
        for h in range(2):
            if gA:
                for i in range(4):
                    w(f'    var fa{i}{h} = {fa(i, h, "0u")};')
            if gB:
                for j in range(4):
                    w(f'    var fb{j}{h} = {fb(j, h, "0u")};')
    if smem:
        w('    workgroupBarrier();')
    w('    for (var k = 0u; k < m; k += 64u) {')
    for s in range(2):
        ks = 'k' if s == 0 else '(k + 32u)'
        w('        {')
        ind = '            '
        cur, oth = s * buf, (1 - s) * buf
        if smem:
            rs = s % regs
            for j in range(n):
                w(f'{ind}{sm}[{oth}u + po + {poff * j}u] = r{rs}{j};')
            w(f'{ind}let kn = min({ks} + {32 * (regs + 1)}u, m - 32u);')
            for j in range(n):
                w(f'{ind}r{rs}{j} = {gaddr(rs, "kn", j)};')
        if fpre:
            w(f'{ind}let kf = min({ks} + 32u, m - 32u);')
        for h in range(2):
            w(f'{ind}{{')
            for i in range(4):
                if gA:
                    if fpre:
                        w(f'{ind}let a{i} = fa{i}{h};')
                        w(f'{ind}fa{i}{h} = {fa(i, h, "kf")};')
                    else:
                        w(f'{ind}let a{i} = {fa(i, h, ks)};')
                else:
                    w(f'{ind}let a{i} = {sa_(i, h, cur)};')
            for j in range(4):
                if gB:
                    if fpre:
                        w(f'{ind}let b{j} = fb{j}{h};')
                        w(f'{ind}fb{j}{h} = {fb(j, h, "kf")};')
                    else:
                        w(f'{ind}let b{j} = {fb(j, h, ks)};')
                else:
                    w(f'{ind}let b{j} = {sb_(j, h, cur)};')
            for i in range(4):
                for j in range(4):
                    w(f'{ind}c{i}{j} = coopMultiplyAdd(a{i}, b{j}, c{i}{j});')
            w(f'{ind}}}')
        if smem:
            w(f'{ind}workgroupBarrier();')
        w('        }')
    w('    }')
    for i in range(4):
        for j in range(4):
            w('    {')
            w(f'        let at = &c[(row0 + ar + {16 * i}u) * m + col0 + bc * 4u + {16 * j}u];')
            w(f'        let v = c{i}{j};')
            w('        coopStoreT(v, at, m);')
            w('    }')
    w('}')
    return '\n'.join(o) + '\n'

GLOBAL = [
    # name, staged operand, register sets, matrices one step ahead
    ('gb_a1', 'a', 1, False),
    ('gb_a1p', 'a', 1, True),
    ('gb_a2p', 'a', 2, True),
    ('gb_a2', 'a', 2, False),
    ('ga_b1p', 'b', 1, True),
    ('ga_b2p', 'b', 2, True),
    ('ga_b1', 'b', 1, False),
    ('g_none_p', '', 1, True),
    ('g_none', '', 1, False),
]

VARIANTS = [
    # name, subgroups, dist, swz, hoist
    ('d8p2', 8, 2, 0, False),      # the row's shape (control)
    ('d8p3', 8, 3, 0, False),
    ('d8p4', 8, 4, 0, False),
    ('d8p2s8', 8, 2, 8, False),
    ('d8p2s4', 8, 2, 4, False),
    ('d8p2h', 8, 2, 0, True),
    ('d16p2', 16, 2, 0, False),
    ('d16p3', 16, 3, 0, False),
    ('d16p4', 16, 4, 0, False),
    ('d16p3s8', 16, 3, 8, False),
    ('d16p2h', 16, 2, 0, True),
    ('d8p3s8', 8, 3, 8, False),
]

if __name__ == '__main__':
    d = sys.argv[1]
    for v in VARIANTS:
        open(f'{d}/{v[0]}.wgsl', 'w').write(wgsl(*v))
    for v in GLOBAL:
        open(f'{d}/{v[0]}.wgsl', 'w').write(wgsl_global(*v))
