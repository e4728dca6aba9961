-- Headless Neovim driver for GM902 (tests/editors/test_library_editors.py): loads docs/editors.md's
-- set-up (graphmend.lua), opens $GM_FILE, waits for the GM902 diagnostic (the server publishes
-- it once the installed package is analysed), records it with its related locations, asks for
-- the code actions on its line, then opens its first related location as a click on it does
-- (vim.lsp.util.jump_to_location) and records where the cursor lands. Writes JSON to $GM_OUT.
local out = { diagnostics = {}, related = {}, actions = {}, jumped = nil, error = nil }

local function finish()
  local f = io.open(vim.env.GM_OUT, 'w')
  f:write(vim.fn.json_encode(out))
  f:close()
  vim.cmd('qall!')
end

local ok, err = pcall(function()
  dofile(vim.env.GM_SETUP)
  vim.cmd('edit ' .. vim.fn.fnameescape(vim.env.GM_FILE))
  local buf = vim.api.nvim_get_current_buf()
  local target
  local got = vim.wait(30000, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.code == 'GM902' then
        target = d
        return true
      end
    end
    return false
  end, 50)
  if not got then
    error('no GM902 diagnostic within 30 s')
  end
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(out.diagnostics, {
      line = d.lnum + 1, col = d.col, code = d.code, severity = d.severity, message = d.message,
    })
  end
  local lsp_diag = target.user_data and target.user_data.lsp
  for _, r in ipairs((lsp_diag and lsp_diag.relatedInformation) or {}) do
    table.insert(out.related, {
      uri = r.location.uri, line = r.location.range.start.line,
      character = r.location.range.start.character, message = r.message,
    })
  end
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = {
      start = { line = target.lnum, character = target.col },
      ['end'] = { line = target.end_lnum, character = target.end_col },
    },
    context = { diagnostics = { lsp_diag }, only = { 'quickfix' } },
  }
  local responses = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, 10000)
  for _, response in pairs(responses or {}) do
    for _, action in ipairs(response.result or {}) do
      table.insert(out.actions, { title = action.title, command = action.command })
    end
  end
  local first = lsp_diag.relatedInformation[1]
  vim.lsp.util.jump_to_location(first.location, 'utf-8')
  local cursor = vim.api.nvim_win_get_cursor(0)
  out.jumped = {
    file = vim.api.nvim_buf_get_name(0), line = cursor[1], col = cursor[2],
    text = vim.api.nvim_get_current_line(),
  }
end)
if not ok then
  out.error = tostring(err)
end
finish()
