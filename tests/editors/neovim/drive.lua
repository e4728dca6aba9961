-- Headless Neovim test driver (tests/editors/test_neovim.py): loads docs/editors.md's set-up
-- (graphmend.lua), opens $GM_FILE, waits for graphmend's diagnostics, asks for the code
-- actions on the diagnostic at line $GM_LINE (1-based), applies the one titled
-- "Mend GM...: ...", and writes what it saw to $GM_OUT as JSON.
local out = { diagnostics = {}, actions = {}, applied = nil, error = nil }

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
  local got = vim.wait(15000, function()
    return #vim.diagnostic.get(buf) > 0
  end, 50)
  if not got then
    error('no diagnostics within 15 s')
  end
  vim.wait(300) -- let a second publication (after the workspace index) land
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(out.diagnostics, { line = d.lnum + 1, code = d.code, source = d.source, message = d.message })
  end
  local target
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.lnum + 1 == tonumber(vim.env.GM_LINE) then
      target = d
    end
  end
  if not target then
    error('no diagnostic on line ' .. vim.env.GM_LINE)
  end
  local lsp_diag = target.user_data and target.user_data.lsp
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = {
      start = { line = target.lnum, character = target.col },
      ['end'] = { line = target.end_lnum, character = target.end_col },
    },
    context = { diagnostics = { lsp_diag }, only = { 'quickfix' } },
  }
  local responses = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, 10000)
  local chosen
  for _, response in pairs(responses or {}) do
    for _, action in ipairs(response.result or {}) do
      table.insert(out.actions, action.title)
      if not chosen and action.title:find('^Mend GM') then
        chosen = action
      end
    end
  end
  if not chosen then
    error('no "Mend GM..." action')
  end
  vim.lsp.util.apply_workspace_edit(chosen.edit, 'utf-16')
  out.applied = chosen.title
  out.text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
end)
if not ok then
  out.error = tostring(err)
end
finish()
