#!/usr/bin/env python3
"""The generator of `src/wgsl/matmul_f16_q4p2.wgsl`, the hand-written twin of the suite's f16
product (`--row`, byte for byte), and of the family of WGSL variants that row's plan belongs
to (for comparing shapes on a new device).

One plan, parameterised: a BMxBN block of WGMxWGN subgroups, steps of BK along k, the tiles
copied by every thread as vec4<f16> words into workgroup arrays of vec4<f16> (rows padded by
two words) read by the matrix loads; each step's words loaded D steps ahead into D register
sets. `nbuf` 1: one buffer, two barriers a step (the row's plan); `nbuf` 2: two buffers, one
barrier a step, the next step's words stored while this step's products run.

Forms of the loop with D register sets (naga refuses a barrier or a matrix operation under an
`if` whose condition reads the loop's `var k`):
  'tail': the loop unrolled by U = D (lcm(2, D) with two buffers) over the first
          (m / (BK·U))·BK·U of k, the remaining 0..U-1 steps peeled after it with the register
          sets and buffers chosen statically, each under an `if` on `m` alone (uniform);
  'rot':  one step a loop iteration, the sets rotated by copies (set0 = set1, ...).
`xh`: the operands of the next k16 half loaded before the current half's products.

`cf`: the rows of a's tile that each half-warp stores are r and r + 4 instead of r and r + 1
(rows of 80 bytes: 320 bytes apart, so the 64-bit stores of 16 threads meet no bank twice).

Usage: matmul_f16_prefetch_tail.py OUT_DIR (one set of variants), --round2 OUT_DIR (the set
around the row's shape), or --row OUT.wgsl (the twin of the suite's row, whose Sarek kernel
benches/coop_q4.rs follows the same plan with loops)."""
import math
import sys


def wgsl(name, BM, BN, WGM, WGN, BK, D, nbuf=1, form='tail', xh=False, swz=0, peel=True,
         header=None, cf=False):
    T = 32 * WGM * WGN
    RS, CS = BM // WGM, BN // WGN           # rows and columns of c a subgroup computes
    mi, nj = RS // 16, CS // 16
    AWd, BWd = BK // 4, BN // 4             # data words in a row of the tiles of a and b
    AW, BW = AWd + 2, BWd + 2               # padded
    assert T % AWd == 0 and T % BWd == 0
    arow, brow = T // AWd, T // BWd         # rows one pass of the threads covers
    na, nb = BM * AWd // T, BK * BWd // T   # words a thread copies of each tile
    assert na * T == BM * AWd and nb * T == BK * BWd
    AOFF, BOFF = BM * AW, BK * BW           # one buffer, in words
    assert nbuf * (AOFF + BOFF) * 8 <= 48 * 1024, name
    halves = BK // 16
    U = D if nbuf == 1 else D * 2 // math.gcd(2, D)
    assert form == 'tail' or nbuf == 1
    o = []
    w = o.append
    if header:
        for line in header:
            w(f'// {line}' if line else '//')
    else:
        w(f'// {name}: {BM}x{BN} block, {WGM * WGN} subgroups of {RS}x{CS}, k-step {BK}, '
          f'{nbuf} buffer{"s" if nbuf > 1 else ""}, words {D} steps ahead ({D} register sets, '
          f'{na + nb} words a set a thread), loop form {form}'
          f'{", next half operands first" if xh else ""}'
          f'{f", workgroups in groups of {swz} block rows" if swz else ""}'
          f'{"" if peel else ", no tail (m a multiple of " + str(BK * U) + ")"}.')
    w(f'// block: {BM}x{BN}')
    w('enable f16;\nenable wgpu_cooperative_matrix;\n')
    w('struct Params { m: u32 }')
    w('@group(0) @binding(0) var<storage, read> a: array<vec4<f16>>;')
    w('@group(0) @binding(1) var<storage, read> b: array<vec4<f16>>;')
    w('@group(0) @binding(2) var<storage, read_write> c: array<f32>;')
    w('@group(0) @binding(3) var<uniform> p: Params;')
    w(f'var<workgroup> sa: array<vec4<f16>, {nbuf * AOFF}>;')
    w(f'var<workgroup> sb: array<vec4<f16>, {nbuf * BOFF}>;\n')
    w(f'@compute @workgroup_size({T})')
    w('fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) t: u32) {')
    w('    let m = p.m;')
    if swz:
        # workgroup (x, y) of the grid renumbered so that consecutive ones walk down groups of
        # `swz` block rows, column by column (the tiles of b they share stay in L2)
        w(f'    let nbx = m / {BN}u;')
        w('    let lin = wid.y * nbx + wid.x;')
        w(f'    let grp = lin / ({swz}u * nbx);')
        w(f'    let r = lin % ({swz}u * nbx);')
        w(f'    let row0 = (grp * {swz}u + r % {swz}u) * {BM}u;')
        w(f'    let col0 = (r / {swz}u) * {BN}u;')
    else:
        w(f'    let row0 = wid.y * {BM}u;')
        w(f'    let col0 = wid.x * {BN}u;')
    w('    let sg = t / 32u;')
    w(f'    let ar = (sg / {WGN}u) * {RS}u;')
    w(f'    let bc = (sg % {WGN}u) * {CS // 4}u;')
    for i in range(mi):
        for j in range(nj):
            w(f'    var c{i}{j}: coop_mat16x16<f32, C>;')
    w('    let q = m / 4u;')
    if cf:
        # rows of a a half-warp stores: r and r + 4 (80-byte rows: 320 bytes apart, 16 banks),
        # so its 64-bit stores meet no bank twice (rows r, r + 1 share four banks)
        assert AWd == 8 and AW == 10
        w('    let ta = ((t / 8u) % 2u) * 4u + (t / 16u) % 4u + (t / 64u) * 8u;')
        w(f'    let la = (row0 + ta) * q + t % {AWd}u;')
        w(f'    let pa = ta * {AW}u + t % {AWd}u;')
    else:
        w(f'    let la = (row0 + t / {AWd}u) * q + t % {AWd}u;')
        w(f'    let pa = (t / {AWd}u) * {AW}u + t % {AWd}u;')
    w(f'    let lb = (t / {BWd}u) * q + col0 / 4u + t % {BWd}u;')
    w(f'    let pb = (t / {BWd}u) * {BW}u + t % {BWd}u;')

    def ga(kexpr, j):
        return f'a[la + ({kexpr}) / 4u + {arow * j}u * q]'

    def gb(kexpr, j):
        return f'b[lb + ({kexpr} + {brow * j}u) * q]'

    def loads(s, kexpr, decl, ind):
        kw = 'var ' if decl else ''
        for j in range(na):
            w(f'{ind}{kw}ra{s}_{j} = {ga(kexpr, j)};')
        for j in range(nb):
            w(f'{ind}{kw}rb{s}_{j} = {gb(kexpr, j)};')

    def stores(s, buf, ind):
        for j in range(na):
            w(f'{ind}sa[{buf * AOFF}u + pa + {arow * AW * j}u] = ra{s}_{j};')
        for j in range(nb):
            w(f'{ind}sb[{buf * BOFF}u + pb + {brow * BW * j}u] = rb{s}_{j};')

    def products(buf, ind):
        def opl(h):
            for i in range(mi):
                w(f'{ind}let a{i}_{h} = coopLoadT<coop_mat16x16<f16, A>>('
                  f'&sa[{buf * AOFF}u + (ar + {16 * i}u) * {AW}u + {4 * h}u], {AW}u);')
            for j in range(nj):
                w(f'{ind}let b{j}_{h} = coopLoadT<coop_mat16x16<f16, B>>('
                  f'&sb[{buf * BOFF + 16 * h * BW}u + bc + {4 * j}u], {BW}u);')

        def mma(h):
            for i in range(mi):
                for j in range(nj):
                    w(f'{ind}c{i}{j} = coopMultiplyAdd(a{i}_{h}, b{j}_{h}, c{i}{j});')
        if xh:
            opl(0)
            for h in range(halves):
                if h + 1 < halves:
                    opl(h + 1)
                mma(h)
        else:
            for h in range(halves):
                opl(h)
                mma(h)

    def step(s, kb, load, ind):
        """Step `s` of the unrolled group (its k: the expression kb)."""
        if nbuf == 1:
            stores(s % D, 0, ind)
            w(f'{ind}workgroupBarrier();')
            if load:
                w(f'{ind}let kn{s} = min({kb} + {BK * D}u, m - {BK}u);')
                loads(s % D, f'kn{s}', False, ind)
            products(0, ind)
            w(f'{ind}workgroupBarrier();')
        else:
            # the next step's words into the other buffer (read two steps ago, a barrier since)
            r = (s + 1) % D
            stores(r, (s + 1) % 2, ind)
            if load:
                w(f'{ind}let kn{s} = min({kb} + {BK * (D + 1)}u, m - {BK}u);')
                loads(r, f'kn{s}', False, ind)
            products(s % 2, ind)
            w(f'{ind}workgroupBarrier();')

    # prologue
    if nbuf == 1:
        for s in range(D):
            loads(s, f'min({BK * s}u, m - {BK}u)' if s else '0u', True, '    ')
    else:
        w('    {')
        for j in range(na):
            w(f'        sa[pa + {arow * AW * j}u] = {ga("0u", j)};')
        for j in range(nb):
            w(f'        sb[pb + {brow * BW * j}u] = {gb("0u", j)};')
        w('    }')
        for j in range(1, D + 1):
            loads(j % D, f'min({BK * j}u, m - {BK}u)', True, '    ')
        w('    workgroupBarrier();')
    if form == 'rot':
        w(f'    for (var k = 0u; k < m; k += {BK}u) {{')
        ind = '        '
        stores(0, 0, ind)
        w(f'{ind}workgroupBarrier();')
        for s in range(D - 1):
            for j in range(na):
                w(f'{ind}ra{s}_{j} = ra{s + 1}_{j};')
            for j in range(nb):
                w(f'{ind}rb{s}_{j} = rb{s + 1}_{j};')
        w(f'{ind}let kn = min(k + {BK * D}u, m - {BK}u);')
        loads(D - 1, 'kn', False, ind)
        products(0, ind)
        w(f'{ind}workgroupBarrier();')
        w('    }')
    elif not peel:
        # m a multiple of BK * U: the unrolled loop alone
        w(f'    for (var k = 0u; k < m; k += {BK * U}u) {{')
        for s in range(U):
            w('        {')
            step(s, 'k' if s == 0 else f'(k + {BK * s}u)', True, '            ')
            w('        }')
        w('    }')
    else:
        w(f'    let kt = (m / {BK * U}u) * {BK * U}u; // k covered by the unrolled loop (uniform)')
        w(f'    for (var k = 0u; k < kt; k += {BK * U}u) {{')
        for s in range(U):
            w('        {')
            step(s, 'k' if s == 0 else f'(k + {BK * s}u)', True, '            ')
            w('        }')
        w('    }')
        w('    // the remaining 0..U-1 steps, sets and buffers static, conditions on m alone')
        for s in range(U - 1):
            w(f'    if (m - kt > {BK * s}u) {{')
            step(s, f'(kt + {BK * s}u)', False, '        ')
            w('    }')
    for i in range(mi):
        for j in range(nj):
            w('    {')
            w(f'        let at = &c[(row0 + ar + {16 * i}u) * m + col0 + bc * 4u + {16 * j}u];')
            w(f'        let v = c{i}{j};')
            w('        coopStoreT(v, at, m);')
            w('    }')
    w('}')
    return '\n'.join(o) + '\n'


# The suite's row: 128x128 blocks of 4 subgroups of 64x64, steps of 32, two register sets.
ROW = ('matmul_f16_q4p2', 128, 128, 2, 2, 32, 2)

TWIN_HEAD = [
    "The twin of sarek-bench's `matmul_f16_q4p2` (`benches/coop_q4.rs`), the suite's f16 row,",
    'written by tools/matmul_f16_prefetch_tail.py --row from the plan it follows: a 128x128 block',
    'of c per 128 invocations (4 subgroups of 32, each a 64x64 part as 4x4 accumulators of',
    '16x16), steps of 32 along k, one buffer of vec4<f16> words in workgroup memory (rows padded',
    'by two words), read by the matrix loads (stride in words); the words of step k + 64 loaded',
    'at step k (2 register sets, the loop unrolled by two), after the first barrier; the rows',
    'of a that a half-warp stores are r and r + 4, so its 64-bit stores meet no bank twice; m a',
    "multiple of 128. Each store of c takes its pointer from a `let`: naga 30 emits a",
    "coopStore's argument expressions after the store, and its SPIR-V writer panics on them.",
]


VARIANTS = [
    # name, BM, BN, WGM, WGN, BK, D, nbuf, form, xh
    ('t_d8p2', 128, 256, 2, 4, 32, 2, 1, 'tail', False),    # the row's plan in this generator
    ('d8p3t', 128, 256, 2, 4, 32, 3, 1, 'tail', False),     # 1: three sets, tail peeled
    ('d8p3r', 128, 256, 2, 4, 32, 3, 1, 'rot', False),      # 1: three sets, rotated by copies
    ('d16p3t', 128, 256, 4, 4, 32, 3, 1, 'tail', False),    # 1: 16 subgroups of 32x64
    ('q8k64p2', 128, 128, 2, 4, 64, 2, 1, 'tail', False),   # 2: h11 with two sets
    ('q8k64p2x', 128, 128, 2, 4, 64, 2, 1, 'tail', True),   # 2: the same, next half first
    ('q8k64p3t', 128, 128, 2, 4, 64, 3, 1, 'tail', False),  # 2: h11 with three sets
    ('q4p2', 128, 128, 2, 2, 32, 2, 1, 'tail', False),      # 3: 4 subgroups of 64x64
    ('q8p2', 128, 128, 2, 4, 32, 2, 1, 'tail', False),      # 3: 8 subgroups of 64x32
    ('db16p4', 128, 256, 2, 4, 16, 4, 2, 'tail', False),    # 3: two k16 buffers, 4 sets
    ('db16p6', 128, 256, 2, 4, 16, 6, 2, 'tail', False),    # 3: two k16 buffers, 6 sets
]

# The second round around q4p2 (name, BM, BN, WGM, WGN, BK, D, nbuf, form, xh, options)
ROUND2 = [
    ('q4p2', 128, 128, 2, 2, 32, 2, 1, 'tail', False, {}),            # the control
    ('q4p2r', 128, 128, 2, 2, 32, 2, 1, 'tail', False, {'peel': False}),  # the row's twin's plan
    ('q4p3t', 128, 128, 2, 2, 32, 3, 1, 'tail', False, {}),           # three sets, tail peeled
    ('q4db16p4', 128, 128, 2, 2, 16, 4, 2, 'tail', False, {}),        # db16p4's loop on q4
    ('q4db32p2', 128, 128, 2, 2, 32, 2, 2, 'tail', False, {}),        # two k32 buffers, 2 sets
    ('q4k64p2', 128, 128, 2, 2, 64, 2, 1, 'tail', False, {}),         # k-step 64, 35 KiB
    ('q4p2s8', 128, 128, 2, 2, 32, 2, 1, 'tail', False, {'swz': 8}),  # L2: groups of 8 rows
    ('q4db16p4s8', 128, 128, 2, 2, 16, 4, 2, 'tail', False, {'swz': 8}),  # both
]

if __name__ == '__main__':
    if sys.argv[1] == '--row':
        # --row OUT.wgsl: the twin of the suite's row (the Sarek kernel, benches/coop_q4.rs,
        # is written by hand with loops over the same plan)
        open(sys.argv[2], 'w').write(wgsl(*ROW, peel=False, header=TWIN_HEAD, cf=True))
    elif sys.argv[1] == '--round2':
        # --round2 DIR: the second round of variants around q4p2
        for v in ROUND2:
            open(f'{sys.argv[2]}/{v[0]}.wgsl', 'w').write(wgsl(*v[:-1], **v[-1]))
    else:
        d = sys.argv[1]
        for v in VARIANTS:
            open(f'{d}/{v[0]}.wgsl', 'w').write(wgsl(*v))
