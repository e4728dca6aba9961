/* The Python version of the interpreter a project most likely runs on: the python3 on PATH. */
#ifndef GM_SERVER_CONFIG_INTERPRETER_VERSION_H
#define GM_SERVER_CONFIG_INTERPRETER_VERSION_H

/* The version (major*100+minor) of the python3 found on PATH, asked once per process and
 * remembered; 0 when there is none or its answer is not "MAJOR.MINOR". */
int gm_interpreter_python_version(void);

/* Runs command (a shell command line that should print "MAJOR.MINOR", as the query above does)
 * and reads its answer: major*100+minor, or 0 when it prints anything else. Not remembered. */
int gm_query_python_version(const char *command);

#endif
