/* SPDX-License-Identifier: MIT */
/* catalog.c - GNU .mo catalogues read without libintl (catalog.h).
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
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "host/catalog.h"
#include "host/format_sig.h"
#include "host/lang.h"
#include "host/util.h"

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
 * msgid_plural's for a plural message (see fig_format_fits). A message that is
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
        fig_format_sig_t sig;
        if (!fig_format_sig(plural ? plural : id, &sig))
            continue;
        bool exact = !plural;
        const char *s = trans_str(c, i), *end = s + trans_len(c, i);
        for (int form = 0; s <= end; form++, s += strlen(s) + 1) {
            char q[64];
            if (!fig_format_fits(&sig, s, exact))
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

/* Memory ran out while opening the catalogue `name`. */
static fig_err_t out_of_memory(const char *name, fig_msg_t *msg)
{
    return fig_fail(msg, FIG_ERR_SPACE, "%.150s: out of memory", name ? name : "catalogue");
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
        return out_of_memory(name, msg);
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


/* Reads the whole .mo file at path (fig_read_file) into a malloc'ed buffer.
 * A missing file, a folder and a file too large to be ours are told before
 * reading, in words of their own; every message names the path. */
static fig_err_t read_mo(const char *path, char **data, size_t *size, fig_msg_t *msg)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        char why[128];
        return fig_fail(msg, FIG_ERR_INPUT, "%.150s: %s", path,
                        fig_strerror(errno, why, sizeof why));
    }
    if (!S_ISREG(st.st_mode))
        return fig_fail(msg, FIG_ERR_INPUT, "%.150s: not a file", path);
    if (st.st_size > MO_MAX_SIZE)
        return fig_fail(msg, FIG_ERR_INPUT, "%.150s: larger than %d MiB, not a catalogue of ours",
                        path, MO_MAX_SIZE >> 20);
    fig_msg_t why;
    fig_err_t rc = fig_read_file(path, MO_MAX_SIZE, data, size, NULL, &why);
    if (rc != FIG_OK)
        return fig_fail(msg, rc, "%.150s: %s", path, why.text);
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
            return out_of_memory("en", msg);
        *out = c;
        return FIG_OK;
    }
    char path[4096];
    int k = snprintf(path, sizeof path, "%s/%s/LC_MESSAGES/figaro.mo", localedir, lang);
    if (k < 0 || (size_t)k >= sizeof path)
        return fig_fail(msg, FIG_ERR_INPUT, "the folder of the catalogues is too long a path");
    char *data = NULL;
    size_t size = 0;
    fig_err_t rc = read_mo(path, &data, &size, msg);
    if (rc != FIG_OK)
        return rc;
    /* The name in messages: the path's end, which says the language and file. */
    const char *name = k > 100 ? path + k - 100 : path;
    while ((*name & 0xC0) == 0x80)
        name++;   /* not in the middle of a UTF-8 character */
    fig_catalog_t *c = catalog_new(name);
    if (!c) {
        free(data);
        return out_of_memory(name, msg);
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
