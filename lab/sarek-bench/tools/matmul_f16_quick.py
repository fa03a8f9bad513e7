#!/usr/bin/env python3
"""Quick forms of the suite's f16 product for a first launch.

Reads the twin `src/wgsl/matmul_f16_vec_p2.wgsl` and writes, into the directory given:
- `q_arr.wgsl`: the 16 accumulators in an array indexed at run time, each half-step's products
  and the final stores in loops of constant trip counts (B's operands loaded once per row of
  accumulators, so four times as often);
- `q_arr_opaque.wgsl`: the same with trip counts the driver cannot know;
- `q_half.wgsl`: named accumulators as in the twin, each step's two half-steps in a loop over
  them (16 products in the loop body instead of 32).
Each computes the same product as the twin (same words, same order of the products into each
accumulator). Measured with `sarek-bench --experiments --only x_coop_first` (`file:` cases) and
`x_matmul_f16` (`SAREK_BENCH_WGSL_FILE`).
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TWIN = os.path.join(HERE, "..", "src", "wgsl", "matmul_f16_vec_p2.wgsl")


def products(lines, i, trips):
    """Replaces the half-step block starting at line i (4 A loads, 4 B loads, 16 products, in
    either order) with loops; returns (new lines, next index)."""
    # A half-step: 4 A loads, 4 B loads, 16 products (24 lines).
    block = lines[i : i + 24]
    assert all("coopLoadT" in l for l in block[:8]) and all("coopMultiplyAdd" in l for l in block[8:])
    i += 24
    a_off = re.search(r"\* 10u \+ (\d+)u\]", next(l for l in block if "f16, A" in l)).group(1)
    b_base = re.search(r"&sb\[(\d+)u \+ bc", next(l for l in block if "f16, B" in l)).group(1)
    four = trips("4u")
    out = [
        f"        for (var i = 0u; i < {four}; i += 1u) {{",
        f"            let am = coopLoadT<coop_mat16x16<f16, A>>(&sa[(ar + i * 16u) * 10u + {a_off}u], 10u);",
        f"            for (var j = 0u; j < {four}; j += 1u) {{",
        f"                let bm = coopLoadT<coop_mat16x16<f16, B>>(&sb[{b_base}u + bc + j * 4u], 66u);",
        "                acc[i * 4u + j] = coopMultiplyAdd(am, bm, acc[i * 4u + j]);",
        "            }",
        "        }",
    ]
    return out, i


def arr(text, opaque):
    trips = (lambda n: f"({n} * select(1u, 0u, m == 0u))") if opaque else (lambda n: n)
    lines = text.split("\n")
    out = []
    i = 0
    declared = False
    stored = False
    while i < len(lines):
        l = lines[i]
        if re.match(r"\s*var c\d\d: coop_mat16x16<f32, C>;", l):
            if not declared:
                out.append("    var acc: array<coop_mat16x16<f32, C>, 16>;")
                declared = True
            i += 1
            continue
        if "coopLoadT" in l:
            new, i = products(lines, i, trips)
            out.extend(new)
            continue
        if l.strip() == "{" and i + 1 < len(lines) and "let at = &c[" in lines[i + 1]:
            # The 16 stores (5 lines each): one loop nest instead.
            i += 5
            if stored:
                continue
            stored = True
            four = trips("4u")
            out.extend([
                f"    for (var i = 0u; i < {four}; i += 1u) {{",
                f"        for (var j = 0u; j < {four}; j += 1u) {{",
                "            let at = &c[(row0 + ar + i * 16u) * m + col0 + bc * 4u + j * 16u];",
                "            let v = acc[i * 4u + j];",
                "            coopStoreT(v, at, m);",
                "        }",
                "    }",
            ])
            continue
        out.append(l)
        i += 1
    return "\n".join(out)


def half(text):
    """Each step's two half-steps (offsets 0 / 4 words of `sa`, 0 / 1056 of `sb`) in a loop."""
    lines = text.split("\n")
    out = []
    i = 0
    while i < len(lines):
        l = lines[i]
        if "coopLoadT" in l and "+ 0u], 10u)" in l:
            # First half-step's block: keep it, made generic in `h`; drop the second one.
            block = lines[i : i + 24]
            second = lines[i + 24 : i + 48]
            assert "+ 4u], 10u)" in second[0], "two half-steps expected back to back"
            i += 48
            out.append("        for (var h = 0u; h < 2u; h += 1u) {")
            for b in block:
                b = b.replace("* 10u + 0u]", "* 10u + h * 4u]").replace("&sb[0u + bc", "&sb[h * 1056u + bc")
                out.append("    " + b)
            out.append("        }")
            continue
        out.append(l)
        i += 1
    return "\n".join(out)


def main():
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    text = open(TWIN).read()
    for name, body in [
        ("q_arr", arr(text, False)),
        ("q_arr_opaque", arr(text, True)),
        ("q_half", half(text)),
        ("q_twin", text),
    ]:
        with open(os.path.join(d, name + ".wgsl"), "w") as f:
            f.write(body)


main()
