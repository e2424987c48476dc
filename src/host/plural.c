/* SPDX-License-Identifier: MIT */
/* plural.c - Plural-Forms (plural.h): gettext's grammar (intl/plural.y), by
 * recursive descent
 *
 *   cond := or [ '?' cond ':' cond ]
 *   or   := and { '||' and }        and := eq { '&&' eq }
 *   eq   := rel { ('==' | '!=') rel }
 *   rel  := add { ('<' | '>' | '<=' | '>=') add }
 *   add  := mul { ('+' | '-') mul }  mul := un { ('*' | '/' | '%') un }
 *   un   := '!' un | 'n' | number | '(' cond ')'
 *
 * The recursion is bounded by FIG_PLURAL_DEPTH nested levels and the tree by
 * FIG_PLURAL_NODES nodes, so no header can exhaust the stack, here or when
 * the tree is evaluated. */
#include <limits.h>
#include <stdbool.h>
#include <string.h>

#include "host/plural.h"

enum { P_NUM, P_N, P_NOT, P_MUL, P_DIV, P_MOD, P_ADD, P_SUB, P_LT, P_GT, P_LE, P_GE, P_EQ,
       P_NE, P_AND, P_OR, P_COND };

typedef struct {
    fig_plural_t *p;
    const char *s;      /* the next character */
    const char *start;  /* for positions in messages */
    int depth;
    fig_msg_t *msg;
    bool failed;
} parser_t;

static int fail_at(parser_t *ps, const char *what)
{
    if (!ps->failed)
        fig_fail(ps->msg, FIG_ERR_INPUT, "Plural-Forms: %s at character %d", what,
                 (int)(ps->s - ps->start) + 1);
    ps->failed = true;
    return -1;
}

static void skip_blanks(parser_t *ps)
{
    while (*ps->s == ' ' || *ps->s == '\t')
        ps->s++;
}

static int node(parser_t *ps, int op, int a, int b, int c, unsigned long value)
{
    if (a < 0 || b < 0 || c < 0 || ps->failed)
        return -1;
    if (ps->p->nnodes >= FIG_PLURAL_NODES)
        return fail_at(ps, "expression too long");
    fig_plural_node_t *nd = &ps->p->node[ps->p->nnodes];
    nd->op = (unsigned char)op;
    nd->a = (unsigned char)a;
    nd->b = (unsigned char)b;
    nd->c = (unsigned char)c;
    nd->value = value;
    return ps->p->nnodes++;
}

/* Consumes `tok` if it comes next (after blanks); a one-character operator
 * does not match the start of a two-character one ('<' in "<=", '!' in "!="). */
static bool accept(parser_t *ps, const char *tok)
{
    skip_blanks(ps);
    size_t n = strlen(tok);
    if (strncmp(ps->s, tok, n) != 0)
        return false;
    if (n == 1 && (tok[0] == '<' || tok[0] == '>' || tok[0] == '!' || tok[0] == '=') &&
        ps->s[1] == '=')
        return false;
    ps->s += n;
    return true;
}

static int parse_cond(parser_t *ps);

static int parse_unary(parser_t *ps)
{
    if (++ps->depth > FIG_PLURAL_DEPTH) {
        ps->depth--;
        return fail_at(ps, "expression nested too deeply");
    }
    int r;
    skip_blanks(ps);
    if (accept(ps, "!")) {
        int a = parse_unary(ps);
        r = node(ps, P_NOT, a, 0, 0, 0);
    } else if (*ps->s == 'n') {
        ps->s++;
        r = node(ps, P_N, 0, 0, 0, 0);
    } else if (*ps->s >= '0' && *ps->s <= '9') {
        unsigned long v = 0;
        while (*ps->s >= '0' && *ps->s <= '9') {
            unsigned d = (unsigned)(*ps->s - '0');
            if (v > (ULONG_MAX - d) / 10) {
                ps->depth--;
                return fail_at(ps, "number too large");
            }
            v = v * 10 + d;
            ps->s++;
        }
        r = node(ps, P_NUM, 0, 0, 0, v);
    } else if (accept(ps, "(")) {
        r = parse_cond(ps);
        if (r >= 0 && !accept(ps, ")"))
            r = fail_at(ps, "')' expected");
    } else {
        r = fail_at(ps, *ps->s ? "unexpected character" : "expression ends too soon");
    }
    ps->depth--;
    return r;
}

/* One level of left-associative binary operators: ops[i] makes codes[i]. */
static int parse_binary(parser_t *ps, int (*next)(parser_t *), const char *const *ops,
                        const int *codes, int nops)
{
    int left = next(ps);
    for (;;) {
        int k = -1;
        for (int i = 0; i < nops && k < 0 && left >= 0; i++)
            if (accept(ps, ops[i]))
                k = i;
        if (k < 0)
            return left;
        int right = next(ps);
        left = node(ps, codes[k], left, right, 0, 0);
    }
}

static int parse_mul(parser_t *ps)
{
    static const char *const ops[] = { "*", "/", "%" };
    static const int codes[] = { P_MUL, P_DIV, P_MOD };
    return parse_binary(ps, parse_unary, ops, codes, 3);
}

static int parse_add(parser_t *ps)
{
    static const char *const ops[] = { "+", "-" };
    static const int codes[] = { P_ADD, P_SUB };
    return parse_binary(ps, parse_mul, ops, codes, 2);
}

static int parse_rel(parser_t *ps)
{
    static const char *const ops[] = { "<=", ">=", "<", ">" };
    static const int codes[] = { P_LE, P_GE, P_LT, P_GT };
    return parse_binary(ps, parse_add, ops, codes, 4);
}

static int parse_eq(parser_t *ps)
{
    static const char *const ops[] = { "==", "!=" };
    static const int codes[] = { P_EQ, P_NE };
    return parse_binary(ps, parse_rel, ops, codes, 2);
}

static int parse_and(parser_t *ps)
{
    static const char *const ops[] = { "&&" };
    static const int codes[] = { P_AND };
    return parse_binary(ps, parse_eq, ops, codes, 1);
}

static int parse_or(parser_t *ps)
{
    static const char *const ops[] = { "||" };
    static const int codes[] = { P_OR };
    return parse_binary(ps, parse_and, ops, codes, 1);
}

static int parse_cond(parser_t *ps)
{
    if (++ps->depth > FIG_PLURAL_DEPTH) {
        ps->depth--;
        return fail_at(ps, "expression nested too deeply");
    }
    int r = parse_or(ps);
    if (r >= 0 && accept(ps, "?")) {
        int a = parse_cond(ps);
        if (a >= 0 && !accept(ps, ":"))
            a = fail_at(ps, "':' expected");
        int b = a >= 0 ? parse_cond(ps) : -1;
        r = node(ps, P_COND, r, a, b, 0);
    }
    ps->depth--;
    return ps->failed ? -1 : r;
}

void fig_plural_english(fig_plural_t *p)
{
    memset(p, 0, sizeof *p);
    p->nplurals = 2;
    p->node[0] = (fig_plural_node_t){ .op = P_N };
    p->node[1] = (fig_plural_node_t){ .op = P_NUM, .value = 1 };
    p->node[2] = (fig_plural_node_t){ .op = P_NE, .a = 0, .b = 1 };
    p->root = 2;
    p->nnodes = 3;
}

fig_err_t fig_plural_parse(fig_plural_t *p, const char *forms, fig_msg_t *msg)
{
    fig_plural_t tmp;
    memset(&tmp, 0, sizeof tmp);
    fig_plural_english(p);
    const char *np = strstr(forms, "nplurals=");
    const char *ex = strstr(forms, "plural=");   /* "nplurals=" has "plurals=", not this */
    if (!np || !ex)
        return fig_fail(msg, FIG_ERR_INPUT, "Plural-Forms: nplurals= and plural= expected");
    np += strlen("nplurals=");
    while (*np == ' ' || *np == '\t')
        np++;
    long k = 0;
    if (*np < '0' || *np > '9')
        return fig_fail(msg, FIG_ERR_INPUT, "Plural-Forms: nplurals is not a number");
    while (*np >= '0' && *np <= '9' && k <= FIG_PLURAL_MAX)
        k = k * 10 + (*np++ - '0');
    if (k < 1 || k > FIG_PLURAL_MAX)
        return fig_fail(msg, FIG_ERR_INPUT, "Plural-Forms: nplurals must be 1 to %d",
                        FIG_PLURAL_MAX);
    tmp.nplurals = (int)k;

    parser_t ps = { &tmp, ex + strlen("plural="), NULL, 0, msg, false };
    ps.start = ps.s;
    int root = parse_cond(&ps);
    if (root < 0 || ps.failed)
        return FIG_ERR_INPUT;
    skip_blanks(&ps);
    if (*ps.s && *ps.s != ';' && *ps.s != '\n' && *ps.s != '\r')
    {
        fail_at(&ps, "unexpected character");
        return FIG_ERR_INPUT;
    }
    tmp.root = root;
    *p = tmp;
    return FIG_OK;
}

/* Evaluates node i. The tree is a DAG of at most FIG_PLURAL_NODES nodes whose
 * operands come before them (node() only links nodes already made), so the
 * recursion is at most that deep. */
static unsigned long eval(const fig_plural_t *p, int i, unsigned long n)
{
    const fig_plural_node_t *nd = &p->node[i];
    unsigned long a = 0, b = 0;
    switch (nd->op) {
    case P_NUM:
        return nd->value;
    case P_N:
        return n;
    case P_NOT:
        return !eval(p, nd->a, n);
    case P_AND:
        return eval(p, nd->a, n) && eval(p, nd->b, n);
    case P_OR:
        return eval(p, nd->a, n) || eval(p, nd->b, n);
    case P_COND:
        return eval(p, nd->a, n) ? eval(p, nd->b, n) : eval(p, nd->c, n);
    default:
        break;
    }
    a = eval(p, nd->a, n);
    b = eval(p, nd->b, n);
    switch (nd->op) {
    case P_MUL: return a * b;
    case P_DIV: return b ? a / b : 0;   /* gettext would trap; we choose form 0 */
    case P_MOD: return b ? a % b : 0;
    case P_ADD: return a + b;
    case P_SUB: return a - b;
    case P_LT: return a < b;
    case P_GT: return a > b;
    case P_LE: return a <= b;
    case P_GE: return a >= b;
    case P_EQ: return a == b;
    case P_NE: return a != b;
    default: return 0;
    }
}

int fig_plural_index(const fig_plural_t *p, unsigned long n)
{
    if (p->nnodes <= 0 || p->root < 0 || p->root >= p->nnodes)
        return n != 1;   /* not parsed: English */
    unsigned long v = eval(p, p->root, n);
    return v < (unsigned long)p->nplurals ? (int)v : 0;
}

