-- The trusted Lua side, part 1 of the chunk emucore.lua.runtime runs with the real globals: the
-- budget (count hook and CPU-time net) and the sandbox the scripts run in. strings.lua and
-- bindings.lua follow it in the same chunk and use its locals.
local py_lookup, py_set, py_byte, py_scenario, py_print, grain, pattern_limit, print_limit, max_nesting,
      thread_clock, memory_soft, py_refusal, move_limit = ...

local type, tostring, tonumber, error, select, pairs, ipairs, next =
      type, tostring, tonumber, error, select, pairs, ipairs, next
local pcall, xpcall, setmetatable, getmetatable = pcall, xpcall, setmetatable, getmetatable
local collectgarbage, load, loadstring, setfenv = collectgarbage, load, loadstring, setfenv
local concat = table.concat
local sbyte, ssub, sfind, smatch, sgmatch, sgsub = string.byte, string.sub, string.find, string.match,
                                                   string.gmatch, string.gsub
local create, resume = coroutine.create, coroutine.resume
local clock = thread_clock  -- this thread's CPU time: other threads' work must not count
local sethook, getinfo = debug.sethook, debug.getinfo
local is_luajit = jit ~= nil

if is_luajit then
  -- compiled traces skip count hooks: interpret everything so the budget sees every instruction
  jit.off()
  jit.flush()
end

-- budget: instructions (count hook) and, as a net for work done inside C functions, CPU time --
-- The clock is read at the first check (the first count hook, or after the first library call),
-- not when a call starts: a call too short for either never pays for reading it.
local budget = { remaining = 0, seconds = 0, deadline = nil, tripped = false, pending = false, reason = "" }
local hook

local function past_deadline()
  local now, deadline = clock(), budget.deadline
  if deadline == nil then
    budget.deadline = now + budget.seconds
    return false
  end
  return now > deadline
end

local function where()
  -- "file:line: " of the innermost frame of a script (not of this file, not a C function)
  local level = 2
  while true do
    local info = getinfo(level, "Sl")
    if not info then return "" end
    if info.what ~= "C" and info.source ~= "=emucore.lua" and info.currentline > 0 then
      return info.short_src .. ":" .. info.currentline .. ": "
    end
    level = level + 1
  end
end

local function join(a, b) return a .. b end

-- Spending the budget allocates nothing and raises nothing here: it switches the hook to fire at
-- every instruction, and the hook raises the error from then on, in every frame and coroutine,
-- so that pcall loops cannot swallow it (nor a memory error keep it from being recorded).
local function trip(reason)
  if budget.tripped then return end
  -- the hook may fire between these statements: it must find the reason before the flag
  budget.reason = reason
  budget.pending = true
  budget.tripped = true
  sethook(hook, "", 1)
end

hook = function()
  if not budget.tripped then
    local left = budget.remaining - grain
    budget.remaining = left
    if left < 0 then
      trip("instruction limit exceeded")
    elseif past_deadline() then
      trip("time limit exceeded")
    else
      return
    end
  end
  sethook(hook, "", 1)  -- this thread too (Lua 5.1 keeps a hook per coroutine)
  if budget.pending then
    budget.pending = false
    local ok, at = pcall(where)
    if ok then
      local joined, message = pcall(join, at, budget.reason)
      if joined then budget.reason = message end
    end
  end
  error(budget.reason, 0)
end

local function charge(instructions)
  local left = budget.remaining - instructions
  budget.remaining = left
  if left < 0 then trip("instruction limit exceeded") end
end

local function check_time(...)
  if past_deadline() then trip("time limit exceeded") end
  return ...
end

local nesting

-- Python pushes the next call's arguments outside any protected call, where running out of memory
-- ends the process: every entry point ends with the state's garbage collected once it nears its cap
local function tidy()
  if collectgarbage("count") * 1024 > memory_soft then collectgarbage("collect") end
end

local function arm(limit, seconds)
  nesting = 0
  budget.remaining = limit
  budget.seconds = seconds
  budget.deadline = nil
  budget.tripped = false
  budget.pending = false
  sethook(hook, "", grain)
end

-- the sandbox -------------------------------------------------------------------------------
local env = {}

-- Compiling is one C call the count hook does not see: its superlinear paths are priced first
-- (emucore.lua.compile_cost) and the clock is read around it. A source of at most TIMED_SOURCE bytes
-- compiles in milliseconds whatever it holds (what the price lets through included): like a short
-- call, it reads no clock. The pricing of a script file (at most 4 MiB, once per load) is the host's
-- work and is not timed; that of a chunk a script loads is the script's (its deadline is the call's).
-- The third result says the chunk was refused (priced beyond the limit).
local TIMED_SOURCE = 65536

local function compile(source, chunkname, file)
  local timed = #source > TIMED_SOURCE
  if timed and not file then past_deadline() end  -- starts the clock if this call has not yet
  local refused = py_refusal(source, chunkname, (not file) and budget.deadline or nil)
  if refused ~= nil then
    if refused == "time limit exceeded" then trip(refused) end
    return nil, refused, true
  end
  if timed and file then past_deadline() end
  local f, err
  if is_luajit then
    f, err = load(source, chunkname, "t", env)  -- text only: no bytecode, even after a '#!' line
  elseif sbyte(source, 1) == 27 then
    return nil, "attempt to load a binary chunk"
  else
    f, err = loadstring(source, chunkname)
    if f then setfenv(f, env) end
  end
  if timed then return check_time(f, err) end
  return f, err
end

for _, name in ipairs({ "assert", "error", "ipairs", "next", "pairs", "rawequal", "rawget", "rawset",
                        "select", "setmetatable", "getmetatable", "tonumber", "tostring", "type",
                        "unpack", "gcinfo" }) do
  env[name] = _G[name]
end
env._VERSION = _VERSION
env._G = env

local function copy(t)
  local c = {}
  for k, v in pairs(t) do c[k] = v end
  return c
end

-- C functions that call back into Lua nest on the C stack (gsub takes ~9 KB a level and LuaJIT
-- does not count C levels: deep nesting crashes the process), so their nesting is capped
nesting = 0

local function enter()
  if nesting >= max_nesting then
    error("C stack overflow (callbacks nested too deeply)", 3)
  end
  nesting = nesting + 1
end

local function finish(name, nests, ok, ...)
  if nests then nesting = nesting - 1 end
  if not ok then
    local e = ...
    if type(e) == "string" and sfind(e, "^emucore%.lua:%d+: ") then
      e = sgsub(e, "^emucore%.lua:%d+: ", "", 1)  -- raised in this chunk (sort's comparison): the script's
    end
    if type(e) == "string" and not smatch(e, "^[^\n]-:%d+: ") then
      -- the C function's own error: give it the script's position and the function's name, as an
      -- unwrapped call would have ("script.lua:3: bad argument #1 to 'rep' (...)")
      e = sgsub(e, "to '%?'", "to '" .. name .. "'", 1)
      error(e, 2)
    end
    error(e, 0)
  end
  return check_time(...)
end

-- The count hook does not see the work a C function does: check the clock after each call.
-- The call runs under pcall, so an error cannot skip the nesting count down.
local function wrap(name, f, nests)
  if type(f) ~= "function" then return f end
  if nests then
    return function(...)
      enter()
      return finish(name, true, pcall(f, ...))
    end
  end
  return function(...) return finish(name, false, pcall(f, ...)) end
end

local reentrant = { gsub = true, format = true, sort = true, foreach = true, foreachi = true }

env.table = copy(table)
for name, f in pairs(env.table) do env.table[name] = wrap(name, f, reentrant[name]) end
env.math = copy(math)
env.coroutine = copy(coroutine)

-- Whoever catches an error restores the nesting (defensive: the wrappers count down themselves).
-- Catching a stack overflow costs a stack reallocation, much C work for few instructions: charge it.
local function after_catch(depth, ok, ...)
  nesting = depth
  if not ok then
    local e = ...
    if type(e) == "string" and sfind(e, "stack overflow", 1, true) then charge(10000) end
  end
  return ok, ...
end

env.pcall = function(...)
  return after_catch(nesting, pcall(...))
end

-- an error handler runs inside the hook that raised the error, where no hook fires: once the
-- budget is spent, skip the script's handler so it cannot loop unseen
env.xpcall = function(f, handler, ...)
  return after_catch(nesting, xpcall(f, function(e)
    if budget.tripped then return e end
    return handler(e)
  end, ...))
end

env.coroutine.resume = function(...)
  return after_catch(nesting, resume(...))
end

if not is_luajit then
  -- Lua 5.1 keeps a Lua hook per thread: give every new coroutine the budget's hook (LuaJIT's
  -- hook is global)
  local sandbox_resume = env.coroutine.resume
  local function hooked_create(f)
    local co = create(f)
    sethook(co, hook, "", budget.tripped and 1 or grain)
    return co
  end
  local function rethrow(ok, ...)
    if not ok then error((...), 0) end
    return ...
  end
  env.coroutine.create = hooked_create
  env.coroutine.wrap = function(f)
    local co = hooked_create(f)
    return function(...) return rethrow(sandbox_resume(co, ...)) end
  end
end

env.print = function(...)
  local parts = {}
  for i = 1, select("#", ...) do
    parts[i] = tostring((select(i, ...)))
  end
  local line = concat(parts, "\t")
  if #line > print_limit then line = ssub(line, 1, print_limit) .. "..." end
  py_print(line)
end
env.loadstring = function(source, chunkname)
  if type(source) ~= "string" then
    error("bad argument #1 to 'loadstring' (string expected, got " .. type(source) .. ")", 2)
  end
  local f, err, refused = compile(source, chunkname or source)
  if refused then error(err, 2) end  -- a sandbox limit, as a pattern too complex: an error, not a nil
  return f, err
end

env.load = function(chunk, chunkname)
  if type(chunk) == "string" then
    local f, err, refused = compile(chunk, chunkname or chunk)
    if refused then error(err, 2) end
    return f, err
  end
  if type(chunk) ~= "function" then
    error("bad argument #1 to 'load' (function expected, got " .. type(chunk) .. ")", 2)
  end
  local parts = {}
  while true do
    local piece = chunk()
    if piece == nil or piece == "" then break end
    if type(piece) ~= "string" then return nil, "reader function must return a string" end
    parts[#parts + 1] = piece
  end
  local f, err, refused = compile(concat(parts), chunkname or "=(load)")
  if refused then error(err, 2) end
  return f, err
end

local gc_options = { collect = true, count = true, step = true }
env.collectgarbage = function(option, arg)
  option = option or "collect"
  if not gc_options[option] then
    error("collectgarbage option '" .. tostring(option) .. "' is not allowed in the sandbox", 2)
  end
  return check_time(collectgarbage(option, arg))  -- a full collection of a big heap is long C work
end
