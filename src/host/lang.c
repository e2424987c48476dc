/* SPDX-License-Identifier: MIT */
/* lang.c - the languages we have, plural forms and GNU .mo catalogues read
 * without libintl (lang.h).
 *
 * The .mo layout (GNU gettext manual, "The Format of GNU MO Files"): a 28-byte
 * header of 32-bit words (magic 0x950412de in the writer's byte order, a
 * revision, N, the offset of the originals' table, the offset of the
 * translations' table, then a hash table we do not use), two tables of N
 * (length, offset) pairs, and the strings, each followed by a NUL its length
 * leaves out. A plural original is "msgid\0msgid_plural"; a plural
 * translation is its forms one after the other, NUL-separated. Entry 0 with
 * the empty msgid is the header, whose Plural-Forms line gives the plural
 * rule.
 *
 * Everything is checked once, in load(); lookups then trust what load()
 * proved: every string is inside the buffer and NUL-terminated, the
 * originals are strictly sorted, every translation takes the printf arguments
 * of its msgid. After load() nothing is ever written, so a catalogue can be
 * shared by any number of threads. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/lang.h"
#include "host/util.h"

/* ---- the languages we have ---- */

/* To add a language: a line here and po/LANG.po (docs/translations.md). */
static const struct {
    const char *code, *name;
} langs[] = {
    { "en", "English" },
    { "fr", "Français" },
    { "nl", "Nederlands" },
    { "it", "Italiano" },
};
enum { NLANGS = sizeof langs / sizeof langs[0] };
_Static_assert((int)NLANGS <= (int)FIG_LANG_MAX, "FIG_LANG_MAX is too small");

int fig_lang_count(void)
{
    return NLANGS;
}

const char *fig_lang_code(int i)
{
    return i >= 0 && i < NLANGS ? langs[i].code : NULL;
}

const char *fig_lang_name(int i)
{
    return i >= 0 && i < NLANGS ? langs[i].name : NULL;
}

void fig_lang_list(char *out, size_t cap)
{
    size_t len = 0;
    if (cap)
        out[0] = '\0';
    for (int i = 0; i < NLANGS; i++)
        fig_putf(out, cap, &len, "%s%s", i ? ", " : "", langs[i].code);
}

bool fig_lang_known(const char *code)
{
    for (int i = 0; code && i < NLANGS; i++)
        if (strcmp(code, langs[i].code) == 0)
            return true;
    return false;
}

/* ---- plural forms: gettext's grammar (intl/plural.y), by recursive descent
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

/* ---- printf formats: the arguments a message takes
 *
 * A translation is used as a printf format with the arguments the msgid
 * takes; one that asks for another argument (a %s where the code passes an
 * int, a %n) would read or write memory it must not. So each translation is
 * checked against its msgid, as msgfmt --check does for c-format messages. */

enum { FMT_MAX_ARGS = 32 };
enum { A_NONE, A_INT, A_UINT, A_LONG, A_ULONG, A_LLONG, A_ULLONG, A_INTMAX, A_UINTMAX, A_SIZE,
       A_PTRDIFF, A_CHAR, A_WINT, A_STR, A_WSTR, A_PTR, A_DBL, A_LDBL };

typedef struct {
    int nargs;                          /* the highest argument number used */
    unsigned char type[FMT_MAX_ARGS + 1];   /* type[1..nargs]; A_NONE: a gap */
} fmt_sig_t;

/* A decimal number of at most 3 digits at *s, followed by '$'; 0 if none. */
static int position(const char **s)
{
    const char *t = *s;
    int v = 0;
    while (*t >= '0' && *t <= '9' && v < 1000)
        v = v * 10 + (*t++ - '0');
    if (t == *s || *t != '$' || v == 0)
        return 0;
    *s = t + 1;
    return v;
}

/* Records argument `pos` (or the next one) as `type`; false on a conflict. */
static bool use_arg(fmt_sig_t *sig, int *next, int pos, int type, int *mode)
{
    int want = pos ? 2 : 1;   /* 1: sequential, 2: numbered */
    if (*mode && *mode != want)
        return false;         /* numbered and unnumbered arguments mixed */
    *mode = want;
    int i = pos ? pos : ++*next;
    if (i > FMT_MAX_ARGS)
        return false;
    if (sig->type[i] != A_NONE && sig->type[i] != type)
        return false;
    sig->type[i] = (unsigned char)type;
    if (i > sig->nargs)
        sig->nargs = i;
    return true;
}

/* Parses the conversions of s into sig; false if s is not a printf format we
 * accept (an unknown conversion, %n, arguments mixed or in conflict). */
static bool format_sig(const char *s, fmt_sig_t *sig)
{
    memset(sig, 0, sizeof *sig);
    int next = 0, mode = 0;
    while ((s = strchr(s, '%')) != NULL) {
        s++;
        if (*s == '%') {
            s++;
            continue;
        }
        int pos = position(&s);
        while (*s && strchr("-+ #0'I", *s))
            s++;
        if (*s == '*') {   /* width from an argument */
            s++;
            int wpos = position(&s);
            if (!use_arg(sig, &next, wpos, A_INT, &mode))
                return false;
        } else {
            while (*s >= '0' && *s <= '9')
                s++;
        }
        if (*s == '.') {
            s++;
            if (*s == '*') {
                s++;
                int ppos = position(&s);
                if (!use_arg(sig, &next, ppos, A_INT, &mode))
                    return false;
            } else {
                while (*s >= '0' && *s <= '9')
                    s++;
            }
        }
        int len = 0;   /* 1 hh, 2 h, 3 l, 4 ll, 5 j, 6 z, 7 t, 8 L */
        if (s[0] == 'h' && s[1] == 'h')
            len = 1, s += 2;
        else if (s[0] == 'l' && s[1] == 'l')
            len = 4, s += 2;
        else if (*s == 'h')
            len = 2, s++;
        else if (*s == 'l')
            len = 3, s++;
        else if (*s == 'j')
            len = 5, s++;
        else if (*s == 'z')
            len = 6, s++;
        else if (*s == 't')
            len = 7, s++;
        else if (*s == 'L' || *s == 'q')
            len = 8, s++;
        int type;
        char c = *s;
        if (!c)
            return false;
        s++;
        static const unsigned char sint[] = { A_INT, A_INT, A_INT, A_LONG, A_LLONG, A_INTMAX,
                                              A_SIZE, A_PTRDIFF, A_LLONG };
        static const unsigned char unsg[] = { A_UINT, A_UINT, A_UINT, A_ULONG, A_ULLONG,
                                              A_UINTMAX, A_SIZE, A_PTRDIFF, A_ULLONG };
        switch (c) {
        case 'd': case 'i':
            type = sint[len];
            break;
        case 'u': case 'o': case 'x': case 'X':
            type = unsg[len];
            break;
        case 'c':
            type = len == 3 ? A_WINT : A_CHAR;
            break;
        case 's':
            type = len == 3 ? A_WSTR : A_STR;
            break;
        case 'p':
            type = A_PTR;
            break;
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
            type = len == 8 ? A_LDBL : A_DBL;
            break;
        case 'm':          /* glibc: strerror(errno), no argument */
            continue;
        default:           /* %n writes through a pointer: never from a catalogue */
            return false;
        }
        if (!use_arg(sig, &next, pos, type, &mode))
            return false;
    }
    return true;
}

/* Whether `tr` (a translation) may be used where `id` is: it takes no
 * argument `id` does not, each of the same type, without gaps; `exact` also
 * asks that it take all of them (a plural form may leave the number out). */
static bool format_fits(const fmt_sig_t *id, const char *tr, bool exact)
{
    fmt_sig_t t;
    if (!format_sig(tr, &t) || t.nargs > id->nargs || (exact && t.nargs != id->nargs))
        return false;
    for (int i = 1; i <= t.nargs; i++)
        if (t.type[i] == A_NONE || t.type[i] != id->type[i])
            return false;
    return true;
}

/* ---- catalogues ---- */

enum { MO_HEADER = 28, MO_MAX_SIZE = 16 << 20, MO_MAGIC = 0x950412de };

struct fig_catalog {
    fig_tr_t tr;              /* ctx is this catalogue */
    char *data;               /* the whole file; NULL for English */
    size_t size;
    bool swap;                /* written in the other byte order */
    uint32_t n, orig, trans;  /* messages; the two tables' offsets */
    fig_plural_t plural;
    char name[128];           /* for messages */
};

static uint32_t bswap32(uint32_t v)
{
    return v >> 24 | (v >> 8 & 0xff00) | (v << 8 & 0xff0000) | v << 24;
}

/* The 32-bit word at off; load() has checked that it is inside the data. */
static uint32_t word(const fig_catalog_t *c, size_t off)
{
    uint32_t v;
    memcpy(&v, c->data + off, 4);
    return c->swap ? bswap32(v) : v;
}

static const char *orig_str(const fig_catalog_t *c, uint32_t i)
{
    return c->data + word(c, c->orig + 8 * (size_t)i + 4);
}

static uint32_t trans_len(const fig_catalog_t *c, uint32_t i)
{
    return word(c, c->trans + 8 * (size_t)i);
}

static const char *trans_str(const fig_catalog_t *c, uint32_t i)
{
    return c->data + word(c, c->trans + 8 * (size_t)i + 4);
}

/* The msgid_plural of original i, or NULL: what follows the first NUL. */
static const char *orig_plural(const fig_catalog_t *c, uint32_t i)
{
    uint32_t len = word(c, c->orig + 8 * (size_t)i);
    const char *s = orig_str(c, i);
    size_t first = strlen(s);
    return first < len ? s + first + 1 : NULL;
}

/* Binary search: the index of msgid among the originals, or -1. The empty
 * msgid is the header, not a message: it is never found, so no lookup hands
 * out the header's text, which check_formats() does not look at. */
static long find(const fig_catalog_t *c, const char *msgid)
{
    if (!*msgid)
        return -1;
    uint32_t lo = 0, hi = c->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int cmp = strcmp(msgid, orig_str(c, mid));
        if (cmp == 0)
            return (long)mid;
        if (cmp < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return -1;
}

/* A message's translation. A plural message looked up as a singular one is
 * not translated: its forms were checked against its msgid_plural, whose
 * arguments need not be the msgid's (and msgid and msgid_plural of one
 * message are never used apart by our code: xgettext merges them). */
static const char *cat_text(const fig_tr_t *tr, const char *msgid)
{
    const fig_catalog_t *c = tr->ctx;
    long i = find(c, msgid);
    if (i < 0 || orig_plural(c, (uint32_t)i) || !*trans_str(c, (uint32_t)i))
        return msgid;   /* an empty translation never replaces a message */
    return trans_str(c, (uint32_t)i);
}

/* The form for n. The catalogue's msgid_plural must be the caller's: the
 * translation was checked against the catalogue's, and the caller passes
 * the arguments of its own; a mismatch is answered in English. */
static const char *cat_plural(const fig_tr_t *tr, const char *msgid, const char *msgid_plural,
                              unsigned long n)
{
    const fig_catalog_t *c = tr->ctx;
    const char *english = n == 1 ? msgid : msgid_plural;
    long i = find(c, msgid);
    if (i < 0)
        return english;
    const char *plural = orig_plural(c, (uint32_t)i);
    if (!plural || strcmp(plural, msgid_plural) != 0)
        return english;
    uint32_t len = trans_len(c, (uint32_t)i);
    const char *s = trans_str(c, (uint32_t)i), *end = s + len;
    for (int k = fig_plural_index(&c->plural, n); k > 0; k--) {
        s += strlen(s) + 1;
        if (s > end)
            return english;   /* fewer forms than the rule asks for */
    }
    return *s ? s : english;
}

static fig_err_t bad(const fig_catalog_t *c, fig_msg_t *msg, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static fig_err_t bad(const fig_catalog_t *c, fig_msg_t *msg, const char *fmt, ...)
{
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return fig_fail(msg, FIG_ERR_INPUT, "%s: %s", c->name, what);
}

/* Checks a string table entry: inside the data and NUL-terminated. */
static fig_err_t check_string(const fig_catalog_t *c, size_t table, uint32_t i, const char *which,
                              fig_msg_t *msg)
{
    uint32_t len = word(c, table + 8 * (size_t)i), off = word(c, table + 8 * (size_t)i + 4);
    if ((uint64_t)off + len + 1 > c->size)
        return bad(c, msg, "message %lu: %s (offset %lu, length %lu) runs past the end of the "
                   "file", (unsigned long)i, which, (unsigned long)off, (unsigned long)len);
    if (c->data[off + len] != '\0')
        return bad(c, msg, "message %lu: %s (offset %lu) does not end in NUL", (unsigned long)i,
                   which, (unsigned long)off);
    return FIG_OK;
}

/* Copies at most `max` bytes of s into out for a message, printable ASCII
 * only (anything else becomes '?'): a hostile file must not put control
 * characters or broken UTF-8 into what a terminal or a JSON frame shows. */
static const char *quote(char *out, size_t cap, const char *s, size_t max)
{
    size_t k = 0;
    for (; s[k] && k < max && k + 1 < cap; k++)
        out[k] = s[k] >= 0x20 && s[k] < 0x7f ? s[k] : '?';
    out[k] = '\0';
    return out;
}

/* The header's line starting with `field` (e.g. "Plural-Forms:"), copied
 * without it into out; false if there is none. */
static bool header_field(const char *header, const char *field, char *out, size_t cap)
{
    size_t n = strlen(field);
    for (const char *line = header; *line;) {
        const char *eol = strchr(line, '\n');
        size_t len = eol ? (size_t)(eol - line) : strlen(line);
        if (len >= n && strncasecmp(line, field, n) == 0) {
            size_t k = len - n < cap - 1 ? len - n : cap - 1;
            memcpy(out, line + n, k);
            out[k] = '\0';
            return true;
        }
        line += len + (eol ? 1 : 0);
    }
    return false;
}

/* The header: the catalogue must be in UTF-8 (what every front end prints),
 * and its Plural-Forms must parse. */
static fig_err_t check_header(fig_catalog_t *c, fig_msg_t *msg)
{
    fig_plural_english(&c->plural);
    if (c->n == 0 || orig_str(c, 0)[0] != '\0')
        return FIG_OK;   /* no header: UTF-8 and English plurals */
    if (orig_plural(c, 0))
        return bad(c, msg, "message 0: the header (the empty msgid) has a plural");
    const char *header = trans_str(c, 0);
    char value[512];
    if (header_field(header, "Content-Type:", value, sizeof value)) {
        const char *cs = strstr(value, "charset=");
        if (cs) {
            cs += strlen("charset=");
            size_t k = strcspn(cs, " \t;\r");
            char q[48];
            if (!((k == 5 && strncasecmp(cs, "UTF-8", 5) == 0) ||
                  (k == 5 && strncasecmp(cs, "ASCII", 5) == 0) ||
                  (k == 4 && strncasecmp(cs, "UTF8", 4) == 0)))
                return fig_fail(msg, FIG_ERR_INPUT, "%s: charset %s, only UTF-8 is read",
                                c->name, quote(q, sizeof q, cs, k < 40 ? k : 40));
        }
    }
    if (header_field(header, "Plural-Forms:", value, sizeof value)) {
        fig_msg_t why;
        if (fig_plural_parse(&c->plural, value, &why) != FIG_OK)
            return fig_fail(msg, FIG_ERR_INPUT, "%s: %.150s", c->name, why.text);
    }
    return FIG_OK;
}

/* Every translation takes its msgid's printf arguments, or its
 * msgid_plural's for a plural message (see format_fits). A message that is
 * not a printf format is never used as one, so its translation is not
 * checked. */
static fig_err_t check_formats(const fig_catalog_t *c, fig_msg_t *msg)
{
    for (uint32_t i = 0; i < c->n; i++) {
        const char *id = orig_str(c, i), *plural = orig_plural(c, i);
        if (!*id)
            continue;   /* the header: never handed out (find) */
        /* A plural message is only ever looked up with its msgid_plural
         * (cat_plural), whose arguments the caller passes: its forms are
         * checked against those, whatever the msgid is. */
        fmt_sig_t sig;
        if (!format_sig(plural ? plural : id, &sig))
            continue;
        bool exact = !plural;
        const char *s = trans_str(c, i), *end = s + trans_len(c, i);
        for (int form = 0; s <= end; form++, s += strlen(s) + 1) {
            char q[64];
            if (!format_fits(&sig, s, exact))
                return fig_fail(msg, FIG_ERR_INPUT,
                                "%s: the translation of \"%s\"%s does not take the same "
                                "printf arguments as the message",
                                c->name, quote(q, sizeof q, id, 60),
                                form ? " (a plural form)" : "");
        }
    }
    return FIG_OK;
}

/* Checks everything lookups will rely on; c->data and c->size are set. */
static fig_err_t load(fig_catalog_t *c, fig_msg_t *msg)
{
    if (c->size < MO_HEADER)
        return bad(c, msg, "too short to be a .mo catalogue (%lu bytes)", (unsigned long)c->size);
    uint32_t magic;
    memcpy(&magic, c->data, 4);
    if (magic == MO_MAGIC)
        c->swap = false;
    else if (magic == bswap32(MO_MAGIC))
        c->swap = true;
    else
        return bad(c, msg, "not a GNU .mo catalogue (magic number %#lx)", (unsigned long)magic);
    uint32_t rev = word(c, 4);
    if (rev >> 16 > 1)
        return bad(c, msg, "unsupported .mo revision %lu.%lu", (unsigned long)(rev >> 16),
                   (unsigned long)(rev & 0xffff));
    c->n = word(c, 8);
    c->orig = word(c, 12);
    c->trans = word(c, 16);
    if (c->n > (c->size - MO_HEADER) / 16)
        return bad(c, msg, "%lu messages cannot fit in %lu bytes", (unsigned long)c->n,
                   (unsigned long)c->size);
    uint64_t table = 8 * (uint64_t)c->n;
    if (c->orig % 4 || (uint64_t)c->orig + table > c->size)
        return bad(c, msg, "the table of messages (offset %lu) is outside the file (%lu bytes)",
                   (unsigned long)c->orig, (unsigned long)c->size);
    if (c->trans % 4 || (uint64_t)c->trans + table > c->size)
        return bad(c, msg,
                   "the table of translations (offset %lu) is outside the file (%lu bytes)",
                   (unsigned long)c->trans, (unsigned long)c->size);
    for (uint32_t i = 0; i < c->n; i++) {
        fig_err_t rc = check_string(c, c->orig, i, "the message", msg);
        if (rc == FIG_OK)
            rc = check_string(c, c->trans, i, "the translation", msg);
        if (rc != FIG_OK)
            return rc;
        if (i > 0) {
            int cmp = strcmp(orig_str(c, i - 1), orig_str(c, i));
            if (cmp >= 0)
                return bad(c, msg, "message %lu is %s", (unsigned long)i,
                           cmp ? "out of order (msgfmt sorts them)" : "there twice");
        }
    }
    fig_err_t rc = check_header(c, msg);
    return rc == FIG_OK ? check_formats(c, msg) : rc;
}

static fig_catalog_t *catalog_new(const char *name)
{
    fig_catalog_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->tr.text = cat_text;
    c->tr.plural = cat_plural;
    c->tr.ctx = c;
    snprintf(c->name, sizeof c->name, "%s", name ? name : "catalogue");
    fig_plural_english(&c->plural);
    return c;
}

fig_err_t fig_catalog_from_buffer(fig_catalog_t **out, const void *data, size_t size,
                                  const char *name, fig_msg_t *msg)
{
    *out = NULL;
    if (size > MO_MAX_SIZE)
        return fig_fail(msg, FIG_ERR_INPUT, "%s: larger than %d MiB, not a catalogue of ours",
                        name ? name : "catalogue", MO_MAX_SIZE >> 20);
    fig_catalog_t *c = catalog_new(name);
    if (!c || !(c->data = malloc(size ? size : 1))) {
        free(c);
        return fig_fail(msg, FIG_ERR_INPUT, "out of memory");
    }
    if (size)
        memcpy(c->data, data, size);
    c->size = size;
    fig_err_t rc = load(c, msg);
    if (rc != FIG_OK) {
        fig_catalog_free(c);
        return rc;
    }
    *out = c;
    return FIG_OK;
}

/* Reads the whole regular file at path (at most MO_MAX_SIZE bytes) into a
 * malloc'ed buffer. */
static fig_err_t read_file(const char *path, char **data, size_t *size, fig_msg_t *msg)
{
    char why[128];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        if (strerror_r(e, why, sizeof why) != 0)
            snprintf(why, sizeof why, "error %d", e);
        return fig_fail(msg, FIG_ERR_INPUT, "%.150s: %s", path, why);
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return fig_fail(msg, FIG_ERR_INPUT, "%.150s: not a file", path);
    }
    if (st.st_size > MO_MAX_SIZE) {
        close(fd);
        return fig_fail(msg, FIG_ERR_INPUT, "%.150s: larger than %d MiB, not a catalogue of ours",
                        path, MO_MAX_SIZE >> 20);
    }
    size_t cap = (size_t)st.st_size, len = 0;
    char *buf = malloc(cap ? cap : 1);
    if (!buf) {
        close(fd);
        return fig_fail(msg, FIG_ERR_INPUT, "out of memory");
    }
    while (len < cap) {   /* a file that shrinks meanwhile is read as it is */
        ssize_t k = read(fd, buf + len, cap - len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            int e = errno;
            if (strerror_r(e, why, sizeof why) != 0)
                snprintf(why, sizeof why, "error %d", e);
            close(fd);
            free(buf);
            return fig_fail(msg, FIG_ERR_INPUT, "%.150s: %s", path, why);
        }
        if (k == 0)
            break;
        len += (size_t)k;
    }
    close(fd);
    *data = buf;
    *size = len;
    return FIG_OK;
}

fig_err_t fig_catalog_open(fig_catalog_t **out, const char *localedir, const char *lang,
                           fig_msg_t *msg)
{
    *out = NULL;
    if (!fig_lang_known(lang)) {   /* also keeps the path inside localedir */
        char list[8 * FIG_LANG_MAX];
        fig_lang_list(list, sizeof list);
        return fig_fail(msg, FIG_ERR_INPUT, "unknown language '%.20s' (%s)", lang ? lang : "",
                        list);
    }
    if (strcmp(lang, "en") == 0) {
        fig_catalog_t *c = catalog_new("en");
        if (!c)
            return fig_fail(msg, FIG_ERR_INPUT, "out of memory");
        *out = c;
        return FIG_OK;
    }
    char path[4096];
    int k = snprintf(path, sizeof path, "%s/%s/LC_MESSAGES/figaro.mo", localedir, lang);
    if (k < 0 || (size_t)k >= sizeof path)
        return fig_fail(msg, FIG_ERR_INPUT, "the folder of the catalogues is too long a path");
    char *data = NULL;
    size_t size = 0;
    fig_err_t rc = read_file(path, &data, &size, msg);
    if (rc != FIG_OK)
        return rc;
    /* The name in messages: the path's end, which says the language and file. */
    const char *name = k > 100 ? path + k - 100 : path;
    while ((*name & 0xC0) == 0x80)
        name++;   /* not in the middle of a UTF-8 character */
    fig_catalog_t *c = catalog_new(name);
    if (!c) {
        free(data);
        return fig_fail(msg, FIG_ERR_INPUT, "out of memory");
    }
    c->data = data;
    c->size = size;
    rc = load(c, msg);
    if (rc != FIG_OK) {
        fig_catalog_free(c);
        return rc;
    }
    *out = c;
    return FIG_OK;
}

void fig_catalog_free(fig_catalog_t *cat)
{
    if (!cat)
        return;
    free(cat->data);
    free(cat);
}

const fig_tr_t *fig_catalog_tr(const fig_catalog_t *cat)
{
    return &cat->tr;
}

int fig_catalog_count(const fig_catalog_t *cat)
{
    return (int)cat->n;
}

bool fig_catalog_entry(const fig_catalog_t *cat, int i, const char **msgid,
                       const char **msgid_plural, const char **msgstr)
{
    if (i < 0 || (uint32_t)i >= cat->n)
        return false;
    *msgid = orig_str(cat, (uint32_t)i);
    *msgid_plural = orig_plural(cat, (uint32_t)i);
    *msgstr = trans_str(cat, (uint32_t)i);
    return true;
}

const fig_plural_t *fig_catalog_plural(const fig_catalog_t *cat)
{
    return &cat->plural;
}
