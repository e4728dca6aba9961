/* User settings of the server: the "graphmend" section of the client's configuration
 * (initializationOptions, workspace/configuration, didChangeConfiguration). */
#ifndef GM_SERVER_SETTINGS_H
#define GM_SERVER_SETTINGS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "analyzer.h"

typedef struct {
    gm_analysis_options analysis;
    int log_level; /* window/logMessage types up to this are sent: 1 error .. 4 log; default 3 */
} gm_settings;

void gm_settings_default(gm_settings *settings);

/* Applies the keys present in section (an object; anything else is ignored): compileForward
 * (bool), training (bool), logLevel ("error"|"warning"|"info"|"debug"). Keys of the wrong type
 * are skipped and named in problems (empty when none). Returns true when something changed. */
bool gm_settings_apply_json(gm_settings *settings, const json_t *section, char *problems,
                            size_t problems_size);

/* The defaults as a JSON object with the same keys (for the client-parity test). */
json_t *gm_settings_defaults_json(void);

#endif
