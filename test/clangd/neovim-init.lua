-- Neovim's built-in LSP client against cuda-clangd, headless:
--
--   CUDA_CLANGD=build/bin/cuda-clangd FILE=kernel.cu FIX=padding OUT=fixed.cu \
--     nvim --headless -u test/clangd/neovim-init.lua
--
-- opens FILE, waits for cuda-clangd's diagnostics, asks for the code actions
-- on the first warning's line through vim.lsp.buf.code_action() (choosing the
-- one whose title contains FIX where Neovim would show a menu), waits for the
-- diagnostics of the edited buffer, writes it to OUT and quits. Everything it
-- saw is printed on stdout for FileCheck. Written for Neovim 0.7 (Debian 12),
-- whose client is started with vim.lsp.start_client and buf_attach_client;
-- later versions still have both.

local function say(...)
  io.stdout:write(string.format(...) .. '\n')
end

local function fail(...)
  say('error: ' .. string.format(...))
  vim.cmd('cquit! 1')
end

local function show_diagnostics(label, bufnr)
  local diagnostics = vim.diagnostic.get(bufnr)
  table.sort(diagnostics, function(a, b)
    return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col)
  end)
  for _, d in ipairs(diagnostics) do
    say('%s: %d:%d: %s [%s]', label, d.lnum + 1, d.col + 1, d.message,
        tostring(d.code))
    local lsp = d.user_data and d.user_data.lsp or {}
    for _, info in ipairs(lsp.relatedInformation or {}) do
      local start = info.location.range.start
      say('%s:   related %d:%d: %s', label, start.line + 1,
          start.character + 1, info.message)
    end
  end
  say('%s: %d diagnostics', label, #diagnostics)
  return diagnostics
end

local function run()
  local clangd, file = os.getenv('CUDA_CLANGD'), os.getenv('FILE')
  local fix, out = os.getenv('FIX'), os.getenv('OUT')
  if not (clangd and file and fix and out) then
    return fail('set CUDA_CLANGD, FILE, FIX and OUT')
  end
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()

  -- Count publishDiagnostics for this file (clangd also publishes for its
  -- config files), so that we know when new ones have arrived.
  local uri = vim.uri_from_bufnr(bufnr)
  local published = 0
  local publish = vim.lsp.handlers['textDocument/publishDiagnostics']
  vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, result,
                                                                 ...)
    publish(err, result, ...)
    if result and result.uri == uri then
      published = published + 1
    end
  end

  local directory = vim.fn.fnamemodify(file, ':p:h')
  local client = vim.lsp.start_client({
    name = 'cuda-clangd',
    cmd = { clangd },
    cmd_cwd = directory,
    root_dir = directory,
  })
  if not client then
    return fail('cannot start %s', clangd)
  end
  vim.lsp.buf_attach_client(bufnr, client)
  if not vim.wait(120000, function() return published >= 1 end, 50) then
    return fail('no diagnostics from cuda-clangd in 120 s')
  end
  local before = show_diagnostics('before', bufnr)
  if #before == 0 then
    return fail('no diagnostic to fix')
  end

  -- Where a user would pick from the code action menu, pick FIX.
  local chosen = nil
  vim.ui.select = function(items, opts, on_choice)
    for _, item in ipairs(items) do
      local title = opts.format_item(item)
      say('action: %s', title)
      if not chosen and title:find(fix, 1, true) then
        chosen = item
      end
    end
    on_choice(chosen)
  end
  local seen = published
  vim.api.nvim_win_set_cursor(0, { before[1].lnum + 1, before[1].col })
  vim.lsp.buf.code_action()
  if not vim.wait(30000, function() return chosen ~= nil end, 50) then
    return fail('no code action titled "%s"', fix)
  end

  -- The edit sends didChange; wait for the diagnostics that follow it.
  if not vim.wait(120000, function() return published > seen end, 50) then
    return fail('no diagnostics after the edit in 120 s')
  end
  show_diagnostics('after', bufnr)
  vim.cmd('silent write! ' .. vim.fn.fnameescape(out))
  vim.lsp.stop_client(client)
  vim.wait(5000, function() return vim.lsp.client_is_stopped(client) end, 50)
  say('done')
  vim.cmd('qall!')
end

vim.api.nvim_create_autocmd('VimEnter', {
  callback = function()
    local ok, err = pcall(run)
    if not ok then
      fail('%s', err)
    end
  end,
})
