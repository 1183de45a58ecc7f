-- The trusted Lua side, part 3 (after sandbox.lua and strings.lua, in the same chunk): what scripts
-- see of the game (data, scenario), and the entry points the chunk returns to Python.
-- data and scenario -------------------------------------------------------------------------
-- During an evaluation the values read at its start are cached (prime): a read is a table lookup,
-- not a call into Python. A write may change any of them, so it drops the cache.
local cached_names = {}   -- position in prime's values -> name (false: a name that reads a byte)
local cache = nil         -- name -> value, while primed
local cached_frame = nil

local function cache_names(...)
  local names = { ... }
  for i = 1, select("#", ...) do
    if tonumber(names[i]) ~= nil then names[i] = false end
  end
  cached_names = names
end

local function prime(frame, ...)
  local values, c = { ... }, {}
  for i = 1, select("#", ...) do
    local name, value = cached_names[i], values[i]
    if name and value ~= nil then c[name] = value end
  end
  cache, cached_frame = c, frame
  tidy()
end

local function settle()
  cache, cached_frame = nil, nil
end

env.data = setmetatable({}, {
  __metatable = false,
  __index = function(_, key)
    local c = cache
    if c ~= nil then
      local value = c[key]
      if value ~= nil then return value end
    end
    local ok, value
    local address = tonumber(key)
    if address ~= nil then
      ok, value = py_byte(address)
    elseif type(key) == "string" then
      ok, value = py_lookup(key)
    else
      error("Invalid variable name", 2)
    end
    if not ok then error(value, 2) end
    return value
  end,
  __newindex = function(_, key, value)
    local kt = type(key)
    if kt == "number" then
      key = tostring(key)
    elseif kt ~= "string" then
      error("Invalid variable name", 2)
    end
    local vt = type(value)
    if vt ~= "nil" and vt ~= "number" and vt ~= "boolean" then
      error("Invalid variable type", 2)
    end
    cache = nil
    local ok, message = py_set(key, value)
    if not ok then error(message, 2) end
  end,
})

env.scenario = setmetatable({}, {
  __metatable = false,
  __index = function(_, key)
    if key ~= "frame" and key ~= "timestep" then
      error("Unknown scenario property", 2)
    end
    local frame = cached_frame
    if frame ~= nil then
      if key == "frame" then return frame end
      return (frame - frame % 4) / 4
    end
    local ok, value = py_scenario(key)
    if not ok then error(value, 2) end
    return value
  end,
  __newindex = function() end,
})

local builtins = {}
for name in pairs(env) do builtins[name] = true end

-- entry points for Python -------------------------------------------------------------------
local function message(e)
  if type(e) == "string" then return e end
  if type(e) == "number" then return tostring(e) end
  return "(error object is a " .. type(e) .. " value)"
end

-- the script's function runs under the raw pcall, so an error a C function raises in a tail call
-- has no position rather than one inside this file
local function run_file(source, chunkname, limit, seconds)
  arm(limit, seconds)  -- compiling counts: its CPU time is the load's
  local f, err = compile(source, chunkname, true)
  if not f then
    sethook()
    tidy()
    return false, err
  end
  local ok, e = pcall(f)
  sethook()
  tidy()
  if not ok then return false, message(e) end
  return true, ""
end

local function call(name, limit, seconds)
  arm(limit, seconds)
  local f = env[name]
  if f == nil then
    sethook()
    return false, "function '" .. name .. "' is not defined"
  end
  local ok, result = pcall(f)
  sethook()
  tidy()
  if not ok then return false, message(result) end
  local t = type(result)
  -- lupa would keep a table or a function in its registry, allocating outside any protected call
  if t ~= "number" and t ~= "boolean" then result = nil end
  return true, result
end

-- the names as one string (NUL-separated), for the same reason
local function functions(limit, seconds)
  arm(limit, seconds)
  local names = {}
  for name, value in pairs(env) do
    if type(name) == "string" and type(value) == "function" and not builtins[name]
       and not sfind(name, "\0", 1, true) then
      names[#names + 1] = name
    end
  end
  local joined = concat(names, "\0")
  names = nil
  tidy()
  return joined
end

python = nil
if package and package.loaded then package.loaded.python = nil end

return run_file, call, functions, sethook, cache_names, prime, settle
