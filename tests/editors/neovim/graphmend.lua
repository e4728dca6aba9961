-- graphmend for Neovim without plugins: start the server for Python buffers.
-- Neovim 0.8 and later: vim.lsp.start; Neovim 0.7 (Debian 12): vim.lsp.start_client.
local function graphmend_root(bufnr)
  local path = vim.api.nvim_buf_get_name(bufnr)
  local markers = { 'pyproject.toml', 'setup.py', 'setup.cfg', '.git' }
  local found = vim.fs and vim.fs.find(markers, { path = path, upward = true })[1]
  return found and vim.fs.dirname(found) or vim.fn.fnamemodify(path, ':p:h')
end

local graphmend_cmd = { vim.env.GRAPHMEND_BIN or 'graphmend', 'serve', '--stdio' }

vim.api.nvim_create_autocmd('FileType', {
  pattern = 'python',
  callback = function(args)
    if vim.lsp.start then
      vim.lsp.start({ name = 'graphmend', cmd = graphmend_cmd, root_dir = graphmend_root(args.buf) })
    else
      vim.g.graphmend_client = vim.g.graphmend_client or vim.lsp.start_client({
        name = 'graphmend', cmd = graphmend_cmd, root_dir = graphmend_root(args.buf),
      })
      vim.lsp.buf_attach_client(args.buf, vim.g.graphmend_client)
    end
  end,
})
