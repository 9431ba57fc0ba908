/*
 * The depth guard's first pass over UTF-8 bytes: the same
 * answer as urisift.readers.html.tokens.shallow_twin, the pure-Python pass it is
 * the twin of, held equal to it by a hypothesis test
 * (tests/test_shallow_kernel.py) and by every corpus page.
 *
 * The twin is one regular expression's findall (tokens._FAST) and a loop
 * over its tuples; this reads the same tokens with the same grammar (WHATWG
 * HTML 13.2.5, as far as depth goes: tags and their attributes, comments,
 * bogus comments, the text of raw-text and script elements) and runs the
 * same model of the stack of open elements over them.  Each branch below
 * names the part of the pattern it stands for.  Every step moves forward:
 * the pass is linear, as the pattern's possessive repeats make the twin.
 *
 * Built when the machine has a C compiler (setup.py); where it is not,
 * the twin runs.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

/* tokens.MAX_DEPTH and tokens._ITEMS: checked equal to the twin's at import (tokens.py) */
#define MAX_DEPTH 512
#define ITEMS 1025
/* a start tag pushes at most three entries (a body, a row, itself) before the depth is checked */
#define STACK (MAX_DEPTH + 8)
/* tokens.WITHHELD: the shortest comment text whose place is noted (checked equal at import too) */
#define WITHHELD 256

/* where the texts of the long comments stand: (start, end) pairs, grown as they are met */
typedef struct {
    Py_ssize_t *at;
    Py_ssize_t count, room;
} Spans;

static int note(Spans *spans, Py_ssize_t start, Py_ssize_t end) {
    if (spans == NULL || end - start < WITHHELD) return 0;
    if (spans->count + 2 > spans->room) {
        Py_ssize_t room = spans->room ? 2 * spans->room : 32;
        Py_ssize_t *grown = PyMem_Realloc(spans->at, (size_t)room * sizeof(Py_ssize_t));
        if (grown == NULL) return -1;
        spans->at = grown;
        spans->room = room;
    }
    spans->at[spans->count++] = start;
    spans->at[spans->count++] = end;
    return 0;
}

typedef struct {
    const unsigned char *at;
    Py_ssize_t len;
} Name;

static int is_space(unsigned char c) { return c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' '; }

static int is_alpha(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

static unsigned char lower(unsigned char c) { return (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : c; }

/* two names equal once ASCII letters are lowered (bytes.lower()) */
static int same(Name a, Name b) {
    if (a.len != b.len) return 0;
    for (Py_ssize_t i = 0; i < a.len; i++)
        if (lower(a.at[i]) != lower(b.at[i])) return 0;
    return 1;
}

/* a name equal to a lower-case C string once lowered */
static int is(Name a, const char *word) {
    Py_ssize_t n = (Py_ssize_t)strlen(word);
    if (a.len != n) return 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (lower(a.at[i]) != (unsigned char)word[i]) return 0;
    return 1;
}

static int one_of(Name a, const char *const *words) {
    for (; *words; words++)
        if (is(a, *words)) return 1;
    return 0;
}

/* the sets of tokens.py, lower case */
static const char *const VOID[] = {"area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr",
                                   "image", "img", "input", "keygen", "link", "meta", "param", "source", "track",
                                   "wbr", NULL};
static const char *const BREAKOUT[] = {
    "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em", "embed", "h1", "h2",
    "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing", "menu", "meta", "nobr", "ol", "p", "pre",
    "ruby", "s", "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u", "ul", "var", "font", NULL};
static const char *const INTEGRATION[] = {"foreignobject", "desc", "title", "mi", "mo", "mn", "ms", "mtext",
                                          "annotation-xml", NULL};
static const char *const SAME_CLOSES[] = {"p", "li", "dd", "dt", "option", "td", "th", "tr", NULL};
static const char *const CLOSE_P[] = {
    "address", "article", "aside", "blockquote", "center", "details", "dialog", "dir", "div", "dl", "fieldset",
    "figcaption", "figure", "footer", "header", "hgroup", "main", "menu", "nav", "ol", "p", "search", "section",
    "summary", "ul", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "listing", "form", "li", "dd", "dt", "xmp", NULL};
static const char *const CELLS[] = {"td", "th", NULL};
static const char *const ROWS_CELLS[] = {"td", "th", "tr", NULL};
static const char *const SECTIONS[] = {"tbody", "thead", "tfoot", NULL};
static const char *const SVG_MATH[] = {"svg", "math", NULL};
/* tokens._RAW_NAMES: the elements whose text is read up to their end tag */
static const char *const RAW[] = {"iframe", "noembed", "noframes", "script", "style", "textarea", "title", "xmp",
                                  NULL};

static const unsigned char TBODY[] = "tbody", TR[] = "tr";

/* the pattern's _ATTRIBUTE at i: where it ends, or -1 when none starts there */
static Py_ssize_t attribute(const unsigned char *s, Py_ssize_t n, Py_ssize_t i) {
    if (i >= n || is_space(s[i]) || s[i] == '/' || s[i] == '>') return -1;
    Py_ssize_t k = i + 1;
    while (k < n && !is_space(s[k]) && s[k] != '/' && s[k] != '=' && s[k] != '>') k++;
    Py_ssize_t m = k;
    while (m < n && is_space(s[m])) m++;
    if (m >= n || s[m] != '=') return k; /* a name alone: "(?![SPACE]*+=)" holds */
    m++;
    while (m < n && is_space(s[m])) m++;
    if (m >= n) return -1;
    unsigned char c = s[m];
    if (c == '"' || c == '\'') {
        const unsigned char *close = memchr(s + m + 1, c, (size_t)(n - m - 1));
        return close == NULL ? -1 : (Py_ssize_t)(close - s) + 1; /* unclosed: the tag runs to the end */
    }
    if (c == '>') return m; /* "(?=>)": an empty value */
    while (m < n && !is_space(s[m]) && s[m] != '>') m++; /* unquoted: not '"' or '\'' first */
    return m;
}

/* _FAST_ATTRIBUTES then "(?P<closed>/?)>" from i: the end of the tag, or -1
 * when it fails (over ITEMS items, or the input ends first); *closed says "/>" */
static Py_ssize_t tag_end(const unsigned char *s, Py_ssize_t n, Py_ssize_t i, int *closed) {
    for (int items = 0; items < ITEMS; items++) {
        if (i >= n) break;
        if (is_space(s[i])) {
            while (i < n && is_space(s[i])) i++;
        } else if (s[i] == '/' && !(i + 1 < n && s[i + 1] == '>')) {
            i++;
        } else {
            Py_ssize_t e = attribute(s, n, i);
            if (e < 0) break;
            i = e;
        }
    }
    *closed = 0;
    if (i < n && s[i] == '/' && i + 1 < n && s[i + 1] == '>') {
        *closed = 1;
        return i + 2;
    }
    return (i < n && s[i] == '>') ? i + 1 : -1;
}

/* a name of tokens._NAME from i (a letter first): where it ends */
static Py_ssize_t name_end(const unsigned char *s, Py_ssize_t n, Py_ssize_t i) {
    i++;
    while (i < n && !is_space(s[i]) && s[i] != '/' && s[i] != '>') i++;
    return i;
}

/* whether s[i:] starts with the lower-case word, letters in either case */
static int starts(const unsigned char *s, Py_ssize_t n, Py_ssize_t i, const char *word) {
    Py_ssize_t len = (Py_ssize_t)strlen(word);
    if (n - i < len) return 0;
    Name a = {s + i, len};
    return is(a, word);
}

static int delimits(const unsigned char *s, Py_ssize_t n, Py_ssize_t i) {
    return i < n && (is_space(s[i]) || s[i] == '/' || s[i] == '>');
}

typedef struct {
    Name items[STACK];
    Py_ssize_t depth;
} Stack;

static int top_is(const Stack *st, const char *word) { return st->depth > 0 && is(st->items[st->depth - 1], word); }

static int top_in(const Stack *st, const char *const *words) {
    return st->depth > 0 && one_of(st->items[st->depth - 1], words);
}

static void push(Stack *st, Name name) { st->items[st->depth++] = name; }

/* shallow_twin(markup, syntax, end, comments): 1 True, 0 False, -1 None (-2: out of memory); the long comments'
   texts noted in ``spans`` when it is given */
static int first_pass(const unsigned char *s, Py_ssize_t n, int prefix, Spans *spans) {
    int unsure = prefix ? -1 : 0;
    Stack *st = PyMem_Malloc(sizeof(Stack));
    if (st == NULL) return -2;
    st->depth = 0;
    int foreign = 0, answer = prefix ? -1 : 1;
    Py_ssize_t i = 0;
    while (i < n) {
        const unsigned char *lt = memchr(s + i, '<', (size_t)(n - i));
        if (lt == NULL) break;
        i = (Py_ssize_t)(lt - s);
        /* "<(?=[A-Za-z!?/])": else no match here, and the search goes on from the next byte */
        if (i + 1 >= n || !(is_alpha(s[i + 1]) || s[i + 1] == '!' || s[i + 1] == '?' || s[i + 1] == '/')) {
            i++;
            continue;
        }
        Py_ssize_t at = i + 1;
        int closed;
        /* (?P<raw>...): a raw-text or script element and its text */
        const char *const *raw = RAW;
        for (; *raw; raw++)
            if (starts(s, n, at, *raw) && delimits(s, n, at + (Py_ssize_t)strlen(*raw))) break;
        if (*raw) {
            Py_ssize_t name_len = (Py_ssize_t)strlen(*raw);
            Py_ssize_t e = tag_end(s, n, at + name_len, &closed);
            if (e >= 0) {
                int escape = 0, inner = 0, other_lt = 0;
                Py_ssize_t k = e;
                while (k < n) {
                    const unsigned char *next = memchr(s + k, '<', (size_t)(n - k));
                    if (next == NULL) {
                        k = n;
                        break;
                    }
                    k = (Py_ssize_t)(next - s);
                    if (starts(s, n, k + 1, "!--")) {
                        escape = 1;
                        k += 4;
                    } else if (starts(s, n, k + 1, "script") && delimits(s, n, k + 7)) {
                        inner = 1;
                        k += 8;
                    } else if (k + 1 < n && s[k + 1] == '/' && starts(s, n, k + 2, *raw)
                               && delimits(s, n, k + 2 + name_len)) {
                        break; /* its end tag: the next token */
                    } else {
                        other_lt = 1;
                        k += 1;
                    }
                }
                if ((foreign && (other_lt || escape || inner)) || (escape && inner && strcmp(*raw, "script") == 0)) {
                    answer = unsure;
                    goto done;
                }
                i = k;
                continue;
            }
        }
        if (is_alpha(s[at])) {
            /* (?P<start>_NAME)_FAST_ATTRIBUTES(?P<closed>/?)> */
            Py_ssize_t ne = name_end(s, n, at);
            Py_ssize_t e = tag_end(s, n, ne, &closed);
            if (e >= 0) {
                Name name = {s + at, ne - at};
                i = e;
                if (one_of(name, VOID)) continue;
                if (foreign) {
                    if (one_of(name, BREAKOUT) || (closed && top_in(st, INTEGRATION))) {
                        answer = unsure;
                        goto done;
                    }
                    if (closed) continue;
                } else if (one_of(name, ROWS_CELLS)) {
                    if (top_in(st, CELLS)) st->depth--;
                    if (is(name, "tr") && top_is(st, "tr")) st->depth--;
                    if (top_is(st, "table")) push(st, (Name){TBODY, 5});
                    if (!is(name, "tr") && top_in(st, SECTIONS)) push(st, (Name){TR, 2});
                } else if (st->depth > 0 && same(st->items[st->depth - 1], name) && one_of(name, SAME_CLOSES)) {
                    continue;
                } else if (one_of(name, CLOSE_P) && top_is(st, "p")) {
                    st->depth--;
                } else if (is(name, "plaintext")) {
                    answer = unsure;
                    goto done;
                }
                if (one_of(name, SVG_MATH)) {
                    if (closed) continue;
                    foreign++;
                }
                push(st, name);
                if (st->depth > MAX_DEPTH) {
                    answer = 0;
                    goto done;
                }
                continue;
            }
        } else if (s[at] == '/' && at + 1 < n && is_alpha(s[at + 1])) {
            /* /(?P<end>_NAME)_FAST_ATTRIBUTES/?> */
            Py_ssize_t ne = name_end(s, n, at + 1);
            Py_ssize_t e = tag_end(s, n, ne, &closed);
            if (e >= 0) {
                Name name = {s + at + 1, ne - at - 1};
                i = e;
                if (st->depth > 0 && same(st->items[st->depth - 1], name)) {
                    if (one_of(name, SVG_MATH)) foreign--;
                    st->depth--;
                } else if (is(name, "table") && st->depth > 1 && one_of(st->items[st->depth - 1], SECTIONS)
                           && is(st->items[st->depth - 2], "table")) {
                    st->depth -= 2; /* a table and the body it opened for its rows */
                }
                continue;
            }
        }
        if (starts(s, n, at, "!--")) {
            /* a comment: "<!-->", "<!--->", else up to "-->" or "--!>" (or the end) */
            Py_ssize_t k = at + 3;
            if (k < n && s[k] == '>') {
                i = k + 1;
            } else if (k + 1 < n && s[k] == '-' && s[k + 1] == '>') {
                i = k + 2;
            } else {
                Py_ssize_t text = k, text_end = n;
                i = n;
                for (; k + 2 < n; k++) {
                    if (s[k] == '-' && s[k + 1] == '-') {
                        if (s[k + 2] == '>') {
                            i = k + 3;
                            text_end = k;
                            break;
                        }
                        if (k + 3 < n && s[k + 2] == '!' && s[k + 3] == '>') {
                            i = k + 4;
                            text_end = k;
                            break;
                        }
                    }
                }
                if (note(spans, text, text_end) < 0) {
                    answer = -2;
                    goto done;
                }
            }
            continue;
        }
        if (is_alpha(s[at]) || (s[at] == '/' && at + 1 < n && is_alpha(s[at + 1]))) {
            /* (?P<cut>/?[A-Za-z]): a tag cut by the end of the input, or by ITEMS */
            answer = unsure;
            goto done;
        }
        /* (?P<other>!\[CDATA\[|[!?/])[^>]*+>?: a doctype, a bogus comment, CDATA */
        if (foreign && n - at >= 8 && memcmp(s + at, "![CDATA[", 8) == 0) { /* case as written */
            answer = unsure;
            goto done;
        }
        {
            const unsigned char *gt = memchr(s + at, '>', (size_t)(n - at));
            i = gt == NULL ? n : (Py_ssize_t)(gt - s) + 1;
        }
    }
done:
    PyMem_Free(st);
    return answer;
}

static PyObject *shallow(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer markup;
    PyObject *end = Py_None, *comments = Py_None;
    if (!PyArg_ParseTuple(args, "y*|OO", &markup, &end, &comments)) return NULL;
    if (comments != Py_None && !PyList_Check(comments)) {
        PyBuffer_Release(&markup);
        PyErr_SetString(PyExc_TypeError, "comments: a list or None");
        return NULL;
    }
    Py_ssize_t n = markup.len;
    int prefix = end != Py_None;
    if (prefix) {
        Py_ssize_t limit = PyLong_AsSsize_t(end);
        if (limit == -1 && PyErr_Occurred()) {
            PyBuffer_Release(&markup);
            return NULL;
        }
        if (limit < 0) limit = 0;
        if (limit < n) n = limit;
    }
    int answer;
    Spans spans = {NULL, 0, 0};
    Py_BEGIN_ALLOW_THREADS
    answer = first_pass((const unsigned char *)markup.buf, n, prefix, comments == Py_None ? NULL : &spans);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&markup);
    for (Py_ssize_t k = 0; answer != -2 && k < spans.count; k += 2) {
        PyObject *pair = Py_BuildValue("(nn)", spans.at[k], spans.at[k + 1]);
        if (pair == NULL || PyList_Append(comments, pair) < 0) {
            Py_XDECREF(pair);
            PyMem_Free(spans.at);
            return NULL;
        }
        Py_DECREF(pair);
    }
    PyMem_Free(spans.at);
    if (answer == -2) return PyErr_NoMemory();
    if (answer == 1) Py_RETURN_TRUE;
    if (answer == 0) Py_RETURN_FALSE;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"shallow", shallow, METH_VARARGS,
     "shallow(markup: bytes, end: int | None = None, comments: list | None = None) -> bool | None\n\n"
     "urisift.readers.html.tokens.shallow_twin for bytes: whether the markup surely needs no cap; the long "
     "comments' texts put in comments as (start, end)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "urisift.readers.html.shallow_kernel",
                                    "The depth guard's first pass in C, for UTF-8 bytes (see shallow_kernel.c).",
                                    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit_shallow_kernel(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddIntConstant(m, "MAX_DEPTH", MAX_DEPTH) < 0 || PyModule_AddIntConstant(m, "ITEMS", ITEMS) < 0
        || PyModule_AddIntConstant(m, "WITHHELD", WITHHELD) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
