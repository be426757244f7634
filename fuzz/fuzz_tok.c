/* fuzz_tok.c: the shared tokenizer under every reader's configuration, with a
 * small chunk size so tokens straddle refills, and the number helpers. */
#include <stddef.h>
#include <stdint.h>

#include "util/tok.h"

static const tok_config configs[] = {
    {.punct = "(){}[];:,", .comments = TOK_COMMENT_C | TOK_COMMENT_CPP,
     .line_continuation = true, .quote = '"'},                            /* Liberty */
    {.punct = "()[]{};:,.=#", .comments = TOK_COMMENT_C | TOK_COMMENT_CPP,
     .verilog_escapes = true, .quote = '"'},                              /* Verilog */
    {.punct = "()", .comments = TOK_COMMENT_C | TOK_COMMENT_CPP, .quote = '"'}, /* SDF */
    {.punct = "", .comments = TOK_COMMENT_HASH},                          /* words only */
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++) {
        diag_ctx *d = diag_new(NULL);
        tok_lexer *lx;
        if (tok_open_memory("fuzz", (const char *)data, size, &configs[c], d, &lx) == GP_OK) {
            tok_set_chunk_size(lx, 7);
            tok t, ahead;
            while (tok_next(lx, &t) == GP_OK && t.kind != TOK_EOF) {
                double x;
                int64_t i;
                tok_to_double(&t, &x);
                tok_to_i64(&t, &i);
                if (t.len > 3)
                    tok_peek(lx, &ahead);
            }
            tok_close(lx);
        }
        diag_free(d);
    }
    return 0;
}
