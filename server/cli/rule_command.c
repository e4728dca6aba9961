#include "server/cli/rule_command.h"

#include <stdio.h>
#include <string.h>

#include "analysis/options/analysis_options.h"
#include "analysis/rules/catalogue/rule_catalogue.h"

static const char *severity_name(gm_severity severity) {
    switch (severity) {
    case GM_SEVERITY_ERROR:
        return "error";
    case GM_SEVERITY_WARNING:
        return "warning";
    case GM_SEVERITY_INFORMATION:
        return "information";
    default:
        return "hint";
    }
}

static void print_rule(FILE *out, const gm_rule *rule) {
    fprintf(out, "# %s (%s)\n\n", rule->name, rule->id);
    fprintf(out, "%s.\n\nDefault severity: %s.\n\n", rule->summary,
            severity_name(rule->severity));
    fprintf(out, "## Why it breaks the graph\n\n%s\n\n", rule->explanation);
    fprintf(out, "## How to fix\n\n%s\n", rule->hint);
    if (rule->registry_id && rule->url) {
        fprintf(out, "\n## Reference\n\nPyTorch graph-break registry: [%s](%s)", rule->registry_id,
                rule->url);
        if (rule->gb_type) {
            fprintf(out, " (`%s`)", rule->gb_type);
        }
        fputc('\n', out);
    }
}

int gm_cli_rule(int argc, char **argv) {
    if (argc != 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        FILE *out = argc == 2 ? stdout : stderr;
        fprintf(out, "usage: graphmend rule ID | --all\n");
        if (argc == 2)
            fprintf(out, "\n"
                         "Explains a rule (markdown): what breaks the graph, why, and what to do.\n"
                         "\n"
                         "options:\n"
                         "  ID          a rule id, such as GM401\n"
                         "  --all       every rule\n"
                         "  -h, --help  this help\n");
        return argc == 2 ? 0 : 2;
    }
    if (strcmp(argv[1], "--all") == 0) {
        size_t count;
        const gm_rule *rules = gm_rules(&count);
        for (size_t i = 0; i < count; i++) {
            if (i > 0) {
                fputc('\n', stdout);
            }
            print_rule(stdout, &rules[i]);
        }
        return 0;
    }
    const gm_rule *rule = gm_rule_by_id(argv[1]);
    if (!rule) {
        const char *near = gm_closest_rule_id(argv[1]);
        fprintf(stderr, "graphmend rule: unknown rule '%s'", argv[1]);
        if (near)
            fprintf(stderr, " (did you mean '%s'?)", near);
        fprintf(stderr, "; `graphmend rule --all` lists them\n");
        return 2;
    }
    print_rule(stdout, rule);
    return 0;
}
