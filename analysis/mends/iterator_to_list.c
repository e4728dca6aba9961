/* [List] for GM611: the iterator that `max(...)`/`min(...)` takes with a keyword becomes a list,
 * which dynamo's handler takes: a generator expression becomes the list comprehension of the
 * same clauses, and a call of map, filter, zip or enumerate is wrapped in list(...). Safe: the
 * builtin consumes the whole iterator anyway, in the same order, before it returns. */
#include <stdlib.h>
#include <string.h>

#include "analysis/mends/mends.h"
#include "analysis/mends/rewrite_text.h"

int gm_mend_iterator_to_list(gm_region *region, TSNode iterator, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    uint32_t start = ts_node_start_byte(iterator), end = ts_node_end_byte(iterator);
    gm_text_builder tb;
    gm_tb_init(&tb);
    if (gm_is(iterator, syn->sym.generator_expression)) {
        /* `(x for x in xs)`: the parentheses are the node's first and last bytes */
        if (end - start < 2 || st->text[start] != '(' || st->text[end - 1] != ')') {
            gm_tb_free(&tb);
            return 0;
        }
        gm_tb_append_str(&tb, "[");
        gm_tb_append(&tb, st->text + start + 1, end - start - 2);
        gm_tb_append_str(&tb, "]");
    } else {
        gm_tb_append_str(&tb, "list(");
        gm_tb_append_node(&tb, st->text, iterator);
        gm_tb_append_str(&tb, ")");
    }
    char *replacement = gm_tb_take(&tb);
    if (!replacement)
        return -1;
    return gm_mend_fix_single(out, GM_FIX_SAFE, "make the iterator a list",
                              "Mend graph break: make the iterator a list", start, end,
                              replacement);
}
