/* Pictures of the acoustic operator, apart from the object (docs/acoustic.md "Pictures"): an RGB canvas, text in the 5 x 7
   font of src/acoustic/font.c, a plot of a 2D array through a diverging colour map symmetric about zero with axes, ticks
   and a colour bar, and the PNG file (libpng). */
#include <sbpmg/private/acousticimpl.h>
#include <png.h>
#include <setjmp.h>

#define AC_TEXT_SCALE 2                    /* font pixels per glyph pixel */
#define AC_CHAR_W     (6 * AC_TEXT_SCALE)  /* advance of one character */
#define AC_CHAR_H     (9 * AC_TEXT_SCALE)  /* height of a glyph, descenders included */
#define AC_PLOT_MIN   512                  /* the plot's long side at least */
#define AC_PLOT_MAX   2048                 /* ... and at most (larger arrays are sampled) */
#define AC_MARGIN_L   (8 * AC_CHAR_W + 20) /* tick labels of the vertical axis */
#define AC_MARGIN_T   (2 * AC_CHAR_H + 28) /* the title and the vertical axis's name */
#define AC_MARGIN_B   (2 * AC_CHAR_H + 32) /* tick labels and the name of the horizontal axis */
#define AC_BAR_GAP    20                   /* between the plot and the colour bar */
#define AC_BAR_W      20                   /* the colour bar */
#define AC_MARGIN_R   (AC_BAR_GAP + AC_BAR_W + 8 * AC_CHAR_W + 24)

static const unsigned char AcBlack[3] = {0, 0, 0}, AcWhite[3] = {255, 255, 255}, AcGrey[3] = {128, 128, 128};

/* Diverging colour map: t in [-1, 1] -> blue (-1), white (0), red (+1); not finite: grey. */
void AcColour(PetscReal t, unsigned char c[3])
{
  const PetscReal  neg[3] = {59, 76, 192}, pos[3] = {180, 4, 38}, white[3] = {247, 247, 247};
  const PetscReal  s   = PetscMin(PetscAbsReal(t), 1.0);
  const PetscReal *end = t < 0 ? neg : pos;

  if (PetscIsInfOrNanReal(t)) {
    for (int a = 0; a < 3; a++) c[a] = AcGrey[a];
    return;
  }
  for (int a = 0; a < 3; a++) c[a] = (unsigned char)(white[a] + s * (end[a] - white[a]) + 0.5);
}

/* ---------------------------------------------------------------- canvas */
static PetscErrorCode AcCanvasCreate(PetscInt w, PetscInt h, AcCanvas *c)
{
  PetscFunctionBegin;
  c->w = w;
  c->h = h;
  PetscCall(PetscMalloc1(3 * (size_t)w * (size_t)h, &c->rgb));
  for (size_t p = 0; p < 3 * (size_t)w * (size_t)h; p++) c->rgb[p] = AcWhite[p % 3];
  PetscFunctionReturn(0);
}

PetscErrorCode AcCanvasDestroy(AcCanvas *c)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(c->rgb));
  c->w = c->h = 0;
  PetscFunctionReturn(0);
}

static void AcPixel(AcCanvas *c, PetscInt x, PetscInt y, const unsigned char col[3])
{
  if (x < 0 || y < 0 || x >= c->w || y >= c->h) return;
  for (int a = 0; a < 3; a++) c->rgb[3 * ((size_t)y * c->w + x) + a] = col[a];
}

static void AcFillRect(AcCanvas *c, PetscInt x, PetscInt y, PetscInt w, PetscInt h, const unsigned char col[3])
{
  for (PetscInt j = y; j < y + h; j++)
    for (PetscInt i = x; i < x + w; i++) AcPixel(c, i, j, col);
}

/* A one-pixel frame just outside the box [x, x + w) x [y, y + h). */
static void AcFrame(AcCanvas *c, PetscInt x, PetscInt y, PetscInt w, PetscInt h)
{
  AcFillRect(c, x - 1, y - 1, w + 2, 1, AcBlack);
  AcFillRect(c, x - 1, y + h, w + 2, 1, AcBlack);
  AcFillRect(c, x - 1, y, 1, h, AcBlack);
  AcFillRect(c, x + w, y, 1, h, AcBlack);
}

static PetscInt AcTextWidth(const char s[])
{
  return (PetscInt)strlen(s) * AC_CHAR_W;
}

/* Text with its top-left corner at (x, y). */
static void AcText(AcCanvas *c, PetscInt x, PetscInt y, const char s[])
{
  for (const char *p = s; *p; p++, x += AC_CHAR_W) {
    const unsigned char *g = AcFontGlyph(*p);
    for (PetscInt r = 0; r < 9; r++)
      for (PetscInt b = 0; b < 5; b++)
        if (g[r] & (1 << (4 - b))) AcFillRect(c, x + b * AC_TEXT_SCALE, y + r * AC_TEXT_SCALE, AC_TEXT_SCALE, AC_TEXT_SCALE, AcBlack);
  }
}

/* ---------------------------------------------------------------- layout */

/* The plot's size for an array of nc columns and nr rows: with aspect, one factor on both axes so that the long side has
   at least AC_PLOT_MIN pixels; without, each axis on its own (at least AC_PLOT_MIN, at most AC_PLOT_MAX pixels). */
static PetscInt AcPlotSide(PetscInt n, PetscInt f)
{
  return n * f > AC_PLOT_MAX ? AC_PLOT_MAX : n * f;
}

void AcPlotLayoutCompute(PetscInt nc, PetscInt nr, PetscBool aspect, AcPlotLayout *l)
{
  if (aspect) {
    const PetscInt f = PetscMax(1, (AC_PLOT_MIN + PetscMax(nc, nr) - 1) / PetscMax(nc, nr));
    l->pw            = AcPlotSide(nc, f);
    l->ph            = AcPlotSide(nr, f);
  } else {
    l->pw = AcPlotSide(nc, PetscMax(1, (AC_PLOT_MIN + nc - 1) / nc));
    l->ph = AcPlotSide(nr, PetscMax(1, (AC_PLOT_MIN + nr - 1) / nr));
  }
  l->px      = AC_MARGIN_L;
  l->py      = AC_MARGIN_T;
  l->w       = AC_MARGIN_L + l->pw + AC_MARGIN_R;
  l->h       = AC_MARGIN_T + l->ph + AC_MARGIN_B;
  l->bx      = l->px + l->pw + AC_BAR_GAP;
  l->by      = l->py;
  l->bw      = AC_BAR_W;
  l->bh      = l->ph;
  l->title_y = 8;
  l->label_y = 8 + AC_CHAR_H + 8;
}

/* ---------------------------------------------------------------- axes */

/* A tick spacing of 1, 2 or 5 times a power of ten giving about five ticks over range. */
static PetscReal AcNiceStep(PetscReal range)
{
  const PetscReal raw = range / 5, mag = PetscPowReal(10.0, PetscFloorReal(PetscLog10Real(raw)));
  const PetscReal m[3] = {1, 2, 5};

  for (int i = 0; i < 3; i++)
    if (m[i] * mag >= raw) return m[i] * mag;
  return 10 * mag;
}

static PetscErrorCode AcTickLabel(PetscReal v, PetscReal step, char buf[], size_t len)
{
  PetscFunctionBegin;
  if (PetscAbsReal(v) < 1e-9 * step) v = 0;
  PetscCall(PetscSNPrintf(buf, len, "%.6g", (double)v));
  PetscFunctionReturn(0);
}

/* Ticks and labels of one axis: coordinates c0 and c1 at the centres of the first and last of n cells spread over the
   pixels [p0, p0 + len); vertical axes on the left of the plot (at x = at), horizontal ones below it (at y = at). */
static PetscErrorCode AcAxis(AcCanvas *c, PetscBool vertical, PetscInt p0, PetscInt len, PetscInt n, PetscReal c0, PetscReal c1, PetscInt at)
{
  const PetscReal lo = PetscMin(c0, c1), hi = PetscMax(c0, c1);
  PetscReal       step;

  PetscFunctionBegin;
  if (!(hi > lo) || n < 2) PetscFunctionReturn(0);
  step = AcNiceStep(hi - lo);
  for (PetscReal v = PetscCeilReal(lo / step - 1e-9) * step; v <= hi + 1e-9 * step; v += step) {
    const PetscInt p = p0 + (PetscInt)(((v - c0) / (c1 - c0) * (n - 1) + 0.5) * len / n);
    char           lab[32];

    PetscCall(AcTickLabel(v, step, lab, sizeof(lab)));
    if (vertical) {
      AcFillRect(c, at - 7, p, 6, 1, AcBlack);
      AcText(c, at - 12 - AcTextWidth(lab), p - AC_CHAR_H / 2, lab);
    } else {
      AcFillRect(c, p, at + 1, 1, 6, AcBlack);
      AcText(c, p - AcTextWidth(lab) / 2, at + 12, lab);
    }
  }
  PetscFunctionReturn(0);
}

/* The colour bar: +scale at the top, 0 in the middle, -scale at the bottom, with their labels. */
static PetscErrorCode AcColourBar(AcCanvas *c, const AcPlotLayout *l, PetscReal scale)
{
  const PetscReal val[3] = {scale, 0, -scale};
  const PetscInt  at[3]  = {l->by, l->by + l->bh / 2, l->by + l->bh - 1};

  PetscFunctionBegin;
  for (PetscInt y = 0; y < l->bh; y++) {
    unsigned char col[3];
    AcColour(1 - 2 * (y + 0.5) / l->bh, col);
    AcFillRect(c, l->bx, l->by + y, l->bw, 1, col);
  }
  AcFrame(c, l->bx, l->by, l->bw, l->bh);
  for (int t = 0; t < 3; t++) {
    char lab[32];
    PetscCall(PetscSNPrintf(lab, sizeof(lab), t == 1 ? "0" : "%+.3g", (double)val[t]));
    AcFillRect(c, l->bx + l->bw + 1, at[t], 5, 1, AcBlack);
    AcText(c, l->bx + l->bw + 10, at[t] - AC_CHAR_H / 2, lab);
  }
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- the plot */

/* The picture of an nc x nr array v (v[c + nc r], row 0 at the top): nearest-neighbour to the plot's pixels, the colour
   map over [-scale, scale], the frame, the axes, the colour bar and the text of info. */
PetscErrorCode AcPlotRender(PetscInt nc, PetscInt nr, const PetscReal v[], const AcPlotInfo *info, AcCanvas *c)
{
  AcPlotLayout l;
  PetscReal    scale = info->scale > 0 && PetscIsNormalReal(info->scale) ? info->scale : 1;

  PetscFunctionBegin;
  AcPlotLayoutCompute(nc, nr, info->aspect, &l);
  PetscCall(AcCanvasCreate(l.w, l.h, c));
  for (PetscInt y = 0; y < l.ph; y++) {
    const PetscInt r = (PetscInt)((size_t)y * nr / l.ph);
    for (PetscInt x = 0; x < l.pw; x++) {
      const PetscInt col = (PetscInt)((size_t)x * nc / l.pw);
      unsigned char  rgb[3];
      AcColour(v[col + nc * r] / scale, rgb);
      AcPixel(c, l.px + x, l.py + y, rgb);
    }
  }
  AcFrame(c, l.px, l.py, l.pw, l.ph);
  PetscCall(AcAxis(c, PETSC_FALSE, l.px, l.pw, nc, info->x0, info->x1, l.py + l.ph));
  PetscCall(AcAxis(c, PETSC_TRUE, l.py, l.ph, nr, info->y0, info->y1, l.px));
  PetscCall(AcColourBar(c, &l, scale));
  AcText(c, 8, l.title_y, info->title);
  AcText(c, 8, l.label_y, info->ylabel);
  AcText(c, l.px + (l.pw - AcTextWidth(info->xlabel)) / 2, l.py + l.ph + 12 + AC_CHAR_H + 10, info->xlabel);
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- PNG */

/* libpng reports errors by longjmp; this wrapper returns 0 on success and keeps setjmp out of PETSc code. */
static int AcPNGWrite(FILE *fp, int w, int h, const unsigned char *rgb, char *err, size_t errlen)
{
  png_structp png  = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop   info = png ? png_create_info_struct(png) : NULL;

  if (!png || !info) {
    (void)snprintf(err, errlen, "libpng could not create its structures");
    png_destroy_write_struct(&png, NULL);
    return 1;
  }
  if (setjmp(png_jmpbuf(png))) {
    (void)snprintf(err, errlen, "libpng failed while writing");
    png_destroy_write_struct(&png, &info);
    return 1;
  }
  png_init_io(png, fp);
  png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int r = 0; r < h; r++) png_write_row(png, (png_const_bytep)(rgb + (size_t)3 * w * r));
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  return 0;
}

/* The canvas as an 8-bit RGB PNG. */
PetscErrorCode AcCanvasWritePNG(const AcCanvas *c, const char path[])
{
  FILE *fp;
  char  err[128] = "";
  int   bad;

  PetscFunctionBegin;
  fp = fopen(path, "wb");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open %s for writing", path);
  bad = AcPNGWrite(fp, (int)c->w, (int)c->h, c->rgb, err, sizeof(err));
  bad |= fclose(fp) != 0;
  PetscCheck(!bad, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Writing PNG %s failed: %s", path, err[0] ? err : "close failed");
  PetscFunctionReturn(0);
}
