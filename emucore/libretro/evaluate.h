/* A scenario compiled for one address space: stable-retro's per-frame reward and done evaluation in C.
 *
 * emucore.scenario.compiled builds the program from an Evaluator (emucore/scenario/evaluator.py, the reference
 * evaluator it must match bit for bit); emucore.libretro.native_evaluator packs it into these structs.
 */
#ifndef EMU_EVALUATE_H
#define EMU_EVALUATE_H

#include <stdint.h>

/* cdef: begin */
#define EMU_EVAL_WIDTH 8

/* A data.json variable: up to 8 logical bytes (NULL reads 0), each digit times its weight. */
typedef struct emu_eval_var {
    const uint8_t *bytes[EMU_EVAL_WIDTH];
    uint64_t weights[EMU_EVAL_WIDTH];
    uint64_t mask;  /* ANDed after sign extension */
    int32_t width;  /* 0..8 */
    int32_t kind;   /* 0 u (binary), 1 i (binary, sign-extended), 2 d (packed BCD), 3 n (low-nibble BCD) */
} emu_eval_var;

/* A done test or reward term: op(measured, reference), measured a value or a delta. */
typedef struct emu_eval_term {
    int32_t op;        /* -1: none (the measurement itself), else its code (emu_eval_operations) */
    int32_t var;       /* the variable (index into values) when absolute */
    int32_t delta;     /* -1: absolute, else the delta slot */
    int32_t pad;
    int64_t reference;
    float reward;
    float penalty;
} emu_eval_term;

/* A done node: its tests, then its children (indices into children), combined with any/all. */
typedef struct emu_eval_node {
    int32_t all;
    int32_t first_test;
    int32_t tests;
    int32_t first_child;
    int32_t children;
} emu_eval_node;

typedef struct emu_eval_program {
    const emu_eval_var *vars;
    int32_t n_vars;
    int64_t *values;          /* out: each variable's value */
    const int32_t *delta_vars;  /* the variable of each delta slot */
    int32_t n_deltas;
    int64_t *last;            /* state: each slot's value at the last evaluation */
    int64_t *before;          /* out: each slot's value at the evaluation before */
    uint8_t *have;            /* state: last holds a value */
    uint8_t *had;             /* out: before held a value (else the delta is 0) */
    const emu_eval_term *tests;
    const emu_eval_node *nodes; /* nodes[0] is the root; none when n_nodes is 0 */
    int32_t n_nodes;
    const int32_t *children;
    const emu_eval_term *terms;
    int32_t n_players;
    const int32_t *first_term;
    const int32_t *n_terms;
    const float *initial;     /* each player's time term */
    float *rewards;           /* out */
    float *totals;            /* in/out: each player's total, the reward added in float32 */
} emu_eval_program;

/* One evaluation: reads every variable, moves the delta slots on, returns done (1/0), writes
 * each scored player's reward and adds it to the player's total. */
int emu_eval_run(const emu_eval_program *p);

/* The operations this build evaluates, by emucore.operations.Operation's member names in the order of their codes,
 * each followed by a comma ("EQUAL,NEGATIVE_EQUAL,...,"). */
const char *emu_eval_operations(void);
/* cdef: end */

#endif
