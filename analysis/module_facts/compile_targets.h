/* What a statement hands to torch.compile: `torch.compile(x)`, `torch._dynamo.optimize(...)(x)`
 * and `x.compile()` targets, and the `var = Cls(...)` bindings that lead a target named var to
 * Cls.forward. Recorded in the statement's call part. */
#ifndef GM_ANALYSIS_MODULE_FACTS_COMPILE_TARGETS_H
#define GM_ANALYSIS_MODULE_FACTS_COMPILE_TARGETS_H

#include <stdbool.h>
#include <stddef.h>
#include <tree_sitter/api.h>

#include "analysis/module_facts/call_parts.h"

/* A compile target or instance binding at n, whose symbol is t (when n is a call or an
 * assignment), added to part. self_name: the first parameter of the method n is in (empty
 * elsewhere); `var = self.m(...)` binds var to no class. Returns 0, or -1 on OOM. */
int gm_compile_target_note(const gm_symbols *symbols, const gm_syntax *syntax, const char *text,
                           gm_call_part *part, TSNode n, TSSymbol t, gm_slice self_name);

/* Whether text may hold a compile call at all (`compile(` or `optimize(`, spaces allowed
 * before the parenthesis): a cheap test before parsing a file again for its compile sites.
 * "compile" alone is in most of a library's files (`is_torchdynamo_compiling`, comments). */
bool gm_text_may_call_compile(const char *text, size_t len);

/* Whether text names `compile` or `optimize` as a whole word anywhere (an identifier, an
 * attribute, a string): whatever resolves to torch.compile, torch._dynamo.optimize or a
 * .compile method names one of them in the file, in the call or in the import that binds it
 * (`from torch import compile as tc`). Without either, a file has no compile target. */
bool gm_text_may_name_compile(const char *text, size_t len);

#endif
