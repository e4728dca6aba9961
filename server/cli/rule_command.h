/* `graphmend rule ID` and `graphmend rule --all`: a rule's explanation as markdown, from the
 * catalogue (as ruff's `ruff rule`). */
#ifndef GM_SERVER_CLI_RULE_COMMAND_H
#define GM_SERVER_CLI_RULE_COMMAND_H

/* argv[0] is "rule". Returns the exit status: 0, or 2 for an unknown rule or a bad option. */
int gm_cli_rule(int argc, char **argv);

#endif
