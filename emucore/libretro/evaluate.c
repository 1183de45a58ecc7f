/* The compiled scenario evaluator: see evaluate.h. Every step mirrors the Python evaluator's: DataType.decode
 * (emucore/datatypes.py) for the reads, Term.apply/Term.value (emucore/scenario/model.py) for the terms,
 * Evaluator._node (emucore/scenario/evaluator.py) for the tree. */
#include "evaluate.h"

#include <stddef.h>

typedef __int128 wide;  /* a delta of two int64 values, exact as Python's int */

/* EMU_OPERATIONS is X(NAME, C expression of v and ref) for each member of emucore.operations.Operation, in its
 * order, the expression its MEANINGS entry's c: _build.py defines it. A term's op is that order's index. */
#ifndef EMU_OPERATIONS
#error "EMU_OPERATIONS is not defined: build the extension with emucore/libretro/_build.py"
#endif
#define X(name, expression) OP_##name,
enum { EMU_OPERATIONS };
#undef X

enum { KIND_U, KIND_I, KIND_D, KIND_N };

static int64_t read_var(const emu_eval_var *v) {
    uint64_t value = 0;  /* at most 2^64 - 1 (u8): the sum never wraps */
    for (int32_t k = 0; k < v->width; k++) {
        const uint8_t *at = v->bytes[k];
        uint64_t byte = at ? *at : 0;
        if (v->kind == KIND_D)
            byte = (byte & 0xF) % 10 + 10 * ((byte >> 4) % 10);
        else if (v->kind == KIND_N)
            byte = (byte & 0xF) % 10;
        value += byte * v->weights[k];
    }
    if (v->kind == KIND_I && v->width > 0 && v->width < 8) {
        unsigned bits = 8u * (unsigned)v->width;
        if ((value >> (bits - 1)) & 1u)
            value |= ~((UINT64_C(1) << bits) - 1);
    }
    return (int64_t)(value & v->mask);  /* two's complement wrap, as _to_int64 */
}

static wide measure(const emu_eval_program *p, const emu_eval_term *t) {
    if (t->delta < 0)
        return p->values[t->var];
    int32_t d = t->delta;
    return p->had[d] ? (wide)p->last[d] - (wide)p->before[d] : 0;
}

static wide apply(const emu_eval_term *t, wide v) {
    wide ref = t->reference;
    switch (t->op) {
#define X(name, expression) case OP_##name: return (expression);
    EMU_OPERATIONS
#undef X
    default: return v;
    }
}

const char *emu_eval_operations(void) {
#define X(name, expression) #name ","
    return EMU_OPERATIONS;
#undef X
}

/* np.float32(m) of a Python int goes through a double: two roundings, as numpy does. */
static float to_float32(wide m) {
    return (float)(double)m;
}

static int node(const emu_eval_program *p, int32_t index) {
    const emu_eval_node *n = &p->nodes[index];
    int want_all = n->all != 0;
    for (int32_t i = 0; i < n->tests; i++) {
        const emu_eval_term *t = &p->tests[n->first_test + i];
        if ((apply(t, measure(p, t)) > 0) != want_all)
            return !want_all;
    }
    for (int32_t i = 0; i < n->children; i++) {
        if (node(p, p->children[n->first_child + i]) != want_all)
            return !want_all;
    }
    return want_all;
}

int emu_eval_run(const emu_eval_program *p) {
    for (int32_t i = 0; i < p->n_vars; i++)
        p->values[i] = read_var(&p->vars[i]);
    for (int32_t d = 0; d < p->n_deltas; d++) {
        p->had[d] = p->have[d];
        p->before[d] = p->last[d];
        p->last[d] = p->values[p->delta_vars[d]];
        p->have[d] = 1;
    }
    int done = p->n_nodes > 0 ? node(p, 0) : 0;
    for (int32_t player = 0; player < p->n_players; player++) {
        float total = p->initial[player];
        const emu_eval_term *t = &p->terms[p->first_term[player]];
        for (int32_t i = 0; i < p->n_terms[player]; i++, t++) {
            wide m = apply(t, measure(p, t));
            /* volatile: the product is rounded to float32 before the sum (no fused multiply-add) */
            volatile float value = 0.0f;
            if (m > 0)
                value = to_float32(m) * t->reward;
            else if (m < 0)
                value = to_float32(m) * t->penalty;
            total = total + value;
        }
        p->rewards[player] = total;
        p->totals[player] = p->totals[player] + total;
    }
    return done;
}
