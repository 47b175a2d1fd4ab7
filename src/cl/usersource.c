/* A user's OpenCL source in a program of the library (docs/design.md "User sources and the macro namespace"): the macros it
   #defines and #undefs, read on the host; a reserved name (SBPMG_...) refused, naming the setter and the line; the source
   wrapped so that the compiler names it with its own line numbers and its macros end with it (the implementation's own
   macros that it redefines restored). */
#include <sbpmg/private/climpl.h>
#include <ctype.h>

#define SBPMG_RESERVED_PREFIX "SBPMG_"

/* The source as the preprocessor sees its directives (translation phases 2 and 3): every backslash-newline removed, every
   comment one space, string and character literals kept; line[k] is the line of the source that out[k] comes from. */
static PetscErrorCode SbpmgCLStripSource(const char src[], char **out, int **line)
{
  enum { CODE, STRING, CHARACTER, LINE_COMMENT, BLOCK_COMMENT } state = CODE;
  size_t n, k = 0;
  int    ln = 1;
  char  *o;
  int   *l;

  PetscFunctionBegin;
  PetscCall(PetscStrlen(src, &n));
  PetscCall(PetscMalloc2(n + 1, out, n + 1, line));
  o = *out;
  l = *line;
  for (size_t i = 0; i < n; i++) {
    const char c = src[i], next = src[i + 1];

    if (c == '\\' && (next == '\n' || (next == '\r' && src[i + 2] == '\n'))) { /* a spliced line: one logical line goes on */
      i += next == '\r' ? 2 : 1;
      ln++;
      continue;
    }
    switch (state) {
    case CODE:
      if (c == '/' && (next == '*' || next == '/')) {
        state = next == '*' ? BLOCK_COMMENT : LINE_COMMENT;
        i++;
        o[k]   = ' ';
        l[k++] = ln;
        continue;
      }
      if (c == '"') state = STRING;
      if (c == '\'') state = CHARACTER;
      break;
    case BLOCK_COMMENT:
      if (c == '*' && next == '/') {
        state = CODE;
        i++;
      } else if (c == '\n')
        ln++;
      continue;
    case LINE_COMMENT:
      if (c != '\n') continue;
      state = CODE;
      break;
    case STRING:
    case CHARACTER:
      if (c == '\\' && next && next != '\n') { /* an escape: its character is no delimiter */
        o[k]   = c;
        l[k++] = ln;
        o[k]   = next;
        l[k++] = ln;
        i++;
        continue;
      }
      if (c == (state == STRING ? '"' : '\'') || c == '\n') state = CODE; /* closed, or left open at the end of the line */
      break;
    }
    o[k]   = c;
    l[k++] = ln;
    if (c == '\n') ln++;
  }
  o[k] = 0;
  PetscFunctionReturn(0);
}

static size_t SbpmgCLIdentifierLength(const char *s)
{
  size_t n = 0;

  if (!(isalpha((unsigned char)s[0]) || s[0] == '_')) return 0;
  while (isalnum((unsigned char)s[n]) || s[n] == '_') n++;
  return n;
}

static const char *SbpmgCLSkipBlanks(const char *s)
{
  while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\f' || *s == '\v') s++;
  return s;
}

/* Whether name[0..len) was already listed in the "#undef X\n" lines of list */
static PetscBool SbpmgCLListed(const char list[], const char name[], size_t len)
{
  for (const char *s = strstr(list, "#undef "); s; s = strstr(s + 1, "#undef "))
    if (!strncmp(s + 7, name, len) && s[7 + len] == '\n') return PETSC_TRUE;
  return PETSC_FALSE;
}

/* Append text[0..len) to the growing string *s (used of cap bytes, cap grown as needed). */
static PetscErrorCode SbpmgCLAppend(char **s, size_t *used, size_t *cap, const char text[], size_t len)
{
  PetscFunctionBegin;
  if (*used + len + 1 > *cap) {
    char *grown;

    *cap = 2 * (*used + len + 1);
    PetscCall(PetscMalloc1(*cap, &grown));
    if (*s) PetscCall(PetscMemcpy(grown, *s, *used + 1));
    PetscCall(PetscFree(*s));
    *s = grown;
  }
  PetscCall(PetscMemcpy(*s + *used, text, len));
  *used += len;
  (*s)[*used] = 0;
  PetscFunctionReturn(0);
}

/* Every #define and #undef of the source: a reserved name is an error naming the setter, the macro and the line; the others
   that it #defines or #undefs appended to *undefs (PetscMalloc'ed, grown here) as "#undef NAME\n", each once. */
static PetscErrorCode SbpmgCLScanMacros(MPI_Comm comm, const char setter[], const char src[], char **undefs)
{
  char  *text, *line_end;
  int   *line;
  size_t cap = 0, used = 0;

  PetscFunctionBegin;
  PetscCall(SbpmgCLStripSource(src, &text, &line));
  *undefs = NULL;
  PetscCall(SbpmgCLAppend(undefs, &used, &cap, "", 0));
  for (char *s = text; s && *s; s = line_end ? line_end + 1 : NULL) {
    const char *p = SbpmgCLSkipBlanks(s), *name;
    size_t      dlen, nlen;
    PetscBool   define;
    int         at;

    line_end = strchr(s, '\n');
    if (*p != '#') continue;
    at   = line[p - text];
    p    = SbpmgCLSkipBlanks(p + 1);
    dlen = SbpmgCLIdentifierLength(p);
    if (!((dlen == 6 && !strncmp(p, "define", 6)) || (dlen == 5 && !strncmp(p, "undef", 5)))) continue;
    define = dlen == 6 ? PETSC_TRUE : PETSC_FALSE;
    name   = SbpmgCLSkipBlanks(p + dlen);
    nlen   = SbpmgCLIdentifierLength(name);
    if (!nlen) continue; /* malformed: the compiler's to report */
    if (!strncmp(name, SBPMG_RESERVED_PREFIX, sizeof(SBPMG_RESERVED_PREFIX) - 1)) {
      char macro[256];

      PetscCall(PetscStrncpy(macro, name, PetscMin(nlen + 1, sizeof(macro))));
      PetscCall(PetscFree2(text, line));
      PetscCall(PetscFree(*undefs));
      SETERRQ(comm, PETSC_ERR_ARG_WRONG,
              "The OpenCL source of %s %s the macro %s on its line %d: names beginning with " SBPMG_RESERVED_PREFIX
              " are reserved for the library's own macros (docs/guide.md \"OpenCL sources\")",
              setter, define ? "#defines" : "#undefs", macro, at);
    }
    if (SbpmgCLListed(*undefs, name, nlen)) continue;
    PetscCall(SbpmgCLAppend(undefs, &used, &cap, "#undef ", 7));
    PetscCall(SbpmgCLAppend(undefs, &used, &cap, name, nlen));
    PetscCall(SbpmgCLAppend(undefs, &used, &cap, "\n", 1));
  }
  PetscCall(PetscFree2(text, line));
  PetscFunctionReturn(0);
}

/* Skip from s (at an opening '(') past its matching ')'; string and character literals are skipped whole. */
static const char *SbpmgCLSkipParens(const char *s)
{
  int depth = 0;

  for (; *s; s++) {
    if (*s == '"' || *s == '\'') {
      const char q = *s;
      for (s++; *s && *s != q && *s != '\n'; s++)
        if (*s == '\\' && s[1]) s++;
      if (!*s) break;
    } else if (*s == '(')
      depth++;
    else if (*s == ')' && --depth == 0)
      return s + 1;
  }
  return s;
}

static const char *SbpmgCLSkipSpace(const char *s)
{
  while (*s && isspace((unsigned char)*s)) s++;
  return s;
}

/* The names the stripped source text defines at file scope, for its own prefix (SbpmgCLWrapUserSource()): a function defined there
   (an identifier followed by its parameter list and a body) and a variable or type name declared there (an identifier followed by
   '=', ';', '[' or ','), outside preprocessor lines. Not listed: the entry points (sbp_user_...), names beginning with "__" (the
   implementation's), and the macros the source defines itself (in undefs). Appended to *names as "NAME\n", each once. */
static PetscErrorCode SbpmgCLScanFileScopeNames(const char text[], const char undefs[], char **names)
{
  size_t      used = 0, cap = 0;
  int         braces    = 0;
  PetscBool   linestart = PETSC_TRUE;
  const char *s         = text;

  PetscFunctionBegin;
  *names = NULL;
  PetscCall(SbpmgCLAppend(names, &used, &cap, "", 0));
  while (*s) {
    const size_t n = SbpmgCLIdentifierLength(s);

    if (linestart && *SbpmgCLSkipBlanks(s) == '#') { /* a directive: to its end (splices are gone) */
      s = strchr(s, '\n');
      if (!s) break;
      s++;
      continue;
    }
    linestart = PETSC_FALSE;
    if (*s == '\n') linestart = PETSC_TRUE;
    if (*s == '"' || *s == '\'') { /* a literal: no names in it */
      const char q = *s;
      for (s++; *s && *s != q && *s != '\n'; s++)
        if (*s == '\\' && s[1]) s++;
      if (*s == q) s++;
      continue;
    }
    if (*s == '{' || *s == '}') braces += *s == '{' ? 1 : -1;
    if (!n || (s > text && (isalnum((unsigned char)s[-1]) || s[-1] == '_'))) { /* not the start of an identifier */
      s++;
      continue;
    }
    if (braces == 0 && strncmp(s, "__", 2) && strncmp(s, "sbp_user_", 9)) {
      const char *after = SbpmgCLSkipSpace(s + n);
      PetscBool   named = PETSC_FALSE;

      if (*after == '(') /* a function: defined here when a body follows its parameters */
        named = *SbpmgCLSkipSpace(SbpmgCLSkipParens(after)) == '{' ? PETSC_TRUE : PETSC_FALSE;
      else
        named = (*after == '=' || *after == ';' || *after == '[' || *after == ',') ? PETSC_TRUE : PETSC_FALSE;
      if (named && !SbpmgCLListed(undefs, s, n)) {
        PetscBool listed = PETSC_FALSE;
        for (const char *l = *names; *l && !listed; l = strchr(l, '\n') + 1)
          if (!strncmp(l, s, n) && l[n] == '\n') listed = PETSC_TRUE;
        if (!listed) {
          PetscCall(SbpmgCLAppend(names, &used, &cap, s, n));
          PetscCall(SbpmgCLAppend(names, &used, &cap, "\n", 1));
        }
      }
    }
    s += n;
  }
  PetscFunctionReturn(0);
}

/*
   SbpmgCLCheckUserSource - A user's OpenCL source given to the setter named: an error when it #defines or #undefs a name
   beginning with SBPMG_ (the library's macros), naming the setter, the macro and the line.
*/
PetscErrorCode SbpmgCLCheckUserSource(MPI_Comm comm, const char setter[], const char src[])
{
  char *undefs;

  PetscFunctionBegin;
  if (!src) PetscFunctionReturn(0);
  PetscCall(SbpmgCLScanMacros(comm, setter, src, &undefs));
  PetscCall(PetscFree(undefs));
  PetscFunctionReturn(0);
}

/*
   SbpmgCLWrapUserSource - The user's source as it goes into a program before the library's code: for every macro it #defines
   or #undefs a #pragma push_macro before it and, after it, an #undef and a #pragma pop_macro (a macro of the OpenCL
   implementation that the source redefines or removes, such as PoCL's fmin or sqrt, is the implementation's again; where the
   compiler ignores those pragmas the #undef still ends the user's macro); every name it defines at file scope other than its
   entry point (a helper function, a constant) renamed for this source alone by a macro "#define NAME sbpmg_u<tag>_NAME" before it
   and #undef after it, so that sources of one program (each with its own tag) may define helpers of the same name; a #line
   directive naming the setter before the source (the compiler's messages give "setter:line:column" in the user's own numbering).
   Checked as SbpmgCLCheckUserSource() does. PetscFree() it.
*/
PetscErrorCode SbpmgCLWrapUserSource(MPI_Comm comm, const char setter[], const char src[], int tag, char **wrapped)
{
  char  *undefs, *tail = NULL, line[160], *names, *text;
  int   *lines;
  size_t used = 0, cap = 0, tused = 0, tcap = 0, ls;

  PetscFunctionBegin;
  PetscCall(SbpmgCLScanMacros(comm, setter, src, &undefs));
  PetscCall(SbpmgCLStripSource(src, &text, &lines));
  PetscCall(SbpmgCLScanFileScopeNames(text, undefs, &names));
  PetscCall(PetscFree2(text, lines));
  *wrapped = NULL;
  PetscCall(SbpmgCLAppend(wrapped, &used, &cap, "", 0));
  PetscCall(SbpmgCLAppend(&tail, &tused, &tcap, "\n", 1));    /* a last line without its newline ends before the #undefs */
  for (const char *u = undefs; *u; u = strchr(u, '\n') + 1) { /* a name of any length: appended in pieces */
    const char  *name = u + 7;
    const size_t nlen = (size_t)(strchr(name, '\n') - name);

    PetscCall(SbpmgCLAppend(wrapped, &used, &cap, "#pragma push_macro(\"", 20));
    PetscCall(SbpmgCLAppend(wrapped, &used, &cap, name, nlen));
    PetscCall(SbpmgCLAppend(wrapped, &used, &cap, "\")\n", 3));
    PetscCall(SbpmgCLAppend(&tail, &tused, &tcap, u, 7 + nlen + 1)); /* "#undef NAME\n" */
    PetscCall(SbpmgCLAppend(&tail, &tused, &tcap, "#pragma pop_macro(\"", 19));
    PetscCall(SbpmgCLAppend(&tail, &tused, &tcap, name, nlen));
    PetscCall(SbpmgCLAppend(&tail, &tused, &tcap, "\")\n", 3));
  }
  for (const char *u = names; *u; u = strchr(u, '\n') + 1) { /* this source's own names: a prefix of its tag */
    const size_t nlen = (size_t)(strchr(u, '\n') - u);
    char         prefix[32];

    PetscCall(PetscSNPrintf(prefix, sizeof(prefix), " sbpmg_u%d_", tag));
    PetscCall(SbpmgCLAppend(wrapped, &used, &cap, "#define ", 8));
    PetscCall(SbpmgCLAppend(wrapped, &used, &cap, u, nlen));
    PetscCall(SbpmgCLAppend(wrapped, &used, &cap, prefix, strlen(prefix)));
    PetscCall(SbpmgCLAppend(wrapped, &used, &cap, u, nlen + 1));
    PetscCall(SbpmgCLAppend(&tail, &tused, &tcap, "#undef ", 7));
    PetscCall(SbpmgCLAppend(&tail, &tused, &tcap, u, nlen + 1));
  }
  PetscCall(PetscFree(names));
  PetscCall(PetscSNPrintf(line, sizeof(line), "#line 1 \"%s\"\n", setter));
  PetscCall(SbpmgCLAppend(wrapped, &used, &cap, line, strlen(line)));
  PetscCall(PetscStrlen(src, &ls));
  PetscCall(SbpmgCLAppend(wrapped, &used, &cap, src, ls));
  PetscCall(SbpmgCLAppend(wrapped, &used, &cap, tail, tused));
  PetscCall(PetscFree(tail));
  PetscCall(PetscFree(undefs));
  PetscFunctionReturn(0);
}

/*
   SbpmgCLCheckBuildOptions - The compiler options of -cl_build_options: a -D or -U of a name beginning with SBPMG_ is an
   error naming the macro and the option (it would replace one of the library's own specialisations).
*/
PetscErrorCode SbpmgCLCheckBuildOptions(MPI_Comm comm, const char options[])
{
  const char *s = options;

  PetscFunctionBegin;
  while (s && *s) {
    const char *tok = s, *name;
    size_t      len = 0, nlen;

    while (*tok && isspace((unsigned char)*tok)) tok++;
    while (tok[len] && !isspace((unsigned char)tok[len])) len++;
    s = tok + len;
    if (len < 2 || tok[0] != '-' || (tok[1] != 'D' && tok[1] != 'U')) continue;
    name = tok + 2;
    if (len == 2) { /* "-D NAME": the name is the next word */
      while (*name && isspace((unsigned char)*name)) name++;
    }
    nlen = SbpmgCLIdentifierLength(name);
    if (nlen && !strncmp(name, SBPMG_RESERVED_PREFIX, sizeof(SBPMG_RESERVED_PREFIX) - 1)) {
      int shown = (int)len;

      if (len == 2) shown = (int)(name - tok + nlen);
      SETERRQ(comm, PETSC_ERR_ARG_WRONG,
              "-cl_build_options \"%s\": %.*s would %s the library's own macro %.*s; names beginning with " SBPMG_RESERVED_PREFIX
              " are reserved (docs/guide.md \"OpenCL sources\")",
              options, shown, tok, tok[1] == 'D' ? "set" : "remove", (int)nlen, name);
    }
  }
  PetscFunctionReturn(0);
}

/* The name and line that the source's last #line directive before its physical line L gives that line ("the program" and L when
   none does). */
static void SbpmgCLMappedLine(const char source[], long L, char name[], size_t len, long *mapped)
{
  long        line = 1, dline = 0, dnum = 0;
  const char *p = source;

  PetscStrncpy(name, "the program", len);
  *mapped = L;
  while (*p && line < L) {
    const char *q = p;

    while (*q == ' ' || *q == '\t') q++;
    if (!strncmp(q, "#line", 5)) {
      char       *end;
      const char *open, *close;

      dnum  = strtol(q + 5, &end, 10);
      dline = line;
      open  = strchr(end, '"');
      close = open ? strchr(open + 1, '"') : NULL;
      if (open && close && !memchr(open, '\n', (size_t)(close - open)) && (size_t)(close - open) < len) {
        memcpy(name, open + 1, (size_t)(close - open - 1));
        name[close - open - 1] = 0;
      }
    }
    p = strchr(p, '\n');
    if (!p) break;
    p++;
    line++;
  }
  if (dline) *mapped = dnum + (L - dline - 1);
}

/* A compiler that ignores #line (NVIDIA's names every position "<kernel>:L:C" of the joined text): the first positions of its log
   as the names and lines the #line directives give them, "<kernel>:14:15 is SbpProblemSetForcingSource:3:15", into out. */
PetscErrorCode SbpmgCLMapBuildLog(const char source[], const char log[], char out[], size_t len)
{
  const char *at   = log;
  size_t      used = 0;

  PetscFunctionBegin;
  out[0] = 0;
  if (!strstr(source, "#line")) PetscFunctionReturn(0);
  for (int found = 0; found < 4 && (at = strstr(at, "<kernel>:")); found++) {
    char *end;
    long  L = strtol(at + 9, &end, 10), C = 0, mapped;
    char  name[128];

    at += 9;
    if (end == at || L < 1) continue;
    if (*end == ':') C = strtol(end + 1, NULL, 10);
    SbpmgCLMappedLine(source, L, name, sizeof(name), &mapped);
    PetscCall(PetscSNPrintf(out + used, len - used, "<kernel>:%ld:%ld is %s:%ld:%ld\n", L, C, name, mapped, C));
    PetscCall(PetscStrlen(out, &used));
    if (used + 1 >= len) break;
  }
  PetscFunctionReturn(0);
}
