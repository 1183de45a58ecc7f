-- The trusted Lua side, part 2 (after sandbox.lua, in the same chunk, using its locals): the library
-- calls whose work their arguments set, bounded. Their C code runs unseen by the count hook and the
-- CPU-time net is only checked after it returns, so a call that could run long is priced before it
-- starts and refused when its worst case exceeds its limit.
--
-- What LuaJIT 2.1's libraries in the sandbox cost per call (what calls back into Lua is counted):
--   priced here: string.find/match/gmatch/gsub (the matcher's worst case, pattern_limit steps);
--     gsub's replacement string (each %-escape is a loop per match, even when it adds nothing);
--     table.insert(t, pos, v) and table.remove(t, pos) (the slots they shift, move_limit; a
--     position beyond 32 bits, or NaN, becomes -2^31 in C: refused); table.sort (each comparison
--     runs in Lua, counted); load/loadstring (the compiler, emucore.lua.compile_cost).
--   bounded by LuaJIT: unpack and string.byte (at most 8,000 results: "too many results to
--     unpack", "string slice too long"), string.format (widths and precisions of two digits at
--     most), select and string.char (the stack's arguments), error (the stack's depth).
--   bounded by the memory cap (allocated before the loop, or each step grows what it allocates):
--     string.rep, string.sub/upper/lower/reverse, string.format's output, table.concat (every index
--     it visits must hold a string or a number), tostring, tonumber, .. (concatenation).
--   bounded by the table's size: table.maxn, table.getn and # (LuaJIT's length search), next, pairs,
--     ipairs, table.foreach/foreachi and table.remove (Lua functions in LuaJIT, counted).
--   constant: math.*, coroutine.*, rawget/rawset/rawequal, type, getmetatable/setmetatable, gcinfo.
--   collectgarbage is checked against the clock when it returns (a full collection of the capped heap).
local floor = math.floor
local SPECIALS = "[%^%$%*%+%?%.%(%[%%%-]"  -- what makes find use the matcher (else a plain search)

local function pattern_cost(n, pattern)
  -- worst case of Lua's backtracking matcher: an attempt at each of the n + 1 positions walks the
  -- pattern (a set scans all its text for each character), each quantified item (and %b, and a
  -- back-reference, which compares up to n bytes) may retry every position, and each optional item
  -- doubles the attempts
  local len = #pattern
  local cost = (n + 1) * (len > 0 and len or 1)
  if cost > pattern_limit then return cost end  -- before the walk below, which costs len steps
  local quantifiers, optionals = 0, 0
  local i = 1
  while i <= len do
    local c = sbyte(pattern, i)
    if c == 37 then                            -- '%'
      local d = sbyte(pattern, i + 1)
      if d == 98 then                          -- %bxy
        quantifiers = quantifiers + 1
        i = i + 4
      else
        if d and d >= 49 and d <= 57 then quantifiers = quantifiers + 1 end  -- %1 .. %9
        i = i + 2
      end
    elseif c == 91 then                        -- '[': skip the set
      i = i + 1
      if sbyte(pattern, i) == 94 then i = i + 1 end
      if sbyte(pattern, i) == 93 then i = i + 1 end
      while i <= len and sbyte(pattern, i) ~= 93 do
        if sbyte(pattern, i) == 37 then i = i + 1 end
        i = i + 1
      end
      i = i + 1
    else
      if c == 42 or c == 43 or c == 45 then    -- '*', '+', '-'
        quantifiers = quantifiers + 1
      elseif c == 63 then                      -- '?'
        optionals = optionals + 1
      end
      i = i + 1
    end
  end
  cost = cost * 2 ^ optionals
  for k = 1, quantifiers do
    cost = cost * (n + 1) / (k + 1)
    if cost > pattern_limit then break end
  end
  return cost
end

-- A plain search (LuaJIT's lj_str_find, Lua 5.1's lmemfind) compares the needle at each position of
-- the subject where its first byte occurs, up to the first difference: (n - m + 1) * m in the worst
-- case. Beyond the limit, one cheaper search bounds it: if the needle's first `probe` bytes occur
-- nowhere in the subject, no comparison goes further than them.
local function search_allowed(subject, needle)
  local n, m = #subject, #needle
  if m <= 1 or m > n or (n - m + 1) * m <= pattern_limit then return true end
  local probe = floor(pattern_limit / n)
  if probe < 2 or probe >= m then return false end
  return sfind(subject, ssub(needle, 1, probe), 1, true) == nil
end

local function text(value)
  local t = type(value)
  if t == "string" then return value end
  if t == "number" then return tostring(value) end
  return nil  -- the library reports the bad argument
end

local function guard(subject, pattern, plain)
  subject, pattern = text(subject), text(pattern)
  if subject == nil or pattern == nil then return end
  if plain then
    if not search_allowed(subject, pattern) then
      error("search too costly for the sandbox (a " .. #pattern .. "-byte string in a " .. #subject
            .. "-byte one)", 3)
    end
  elseif pattern_cost(#subject, pattern) > pattern_limit then
    error("pattern too complex for the sandbox", 3)
  end
end

-- the string library is also the string metatable's __index: harden the real table
string.dump = nil
for name, f in pairs(string) do string[name] = wrap(name, f, reentrant[name]) end
local find, match, gsub, rep = string.find, string.match, string.gsub, string.rep
string.rep = function(...)
  -- Lua 5.1 loops n times even for an empty string, unseen by the count hook
  local s, n, sep = ...
  if s == "" and (sep == nil or sep == "") and type(n) == "number" then return "" end
  return rep(...)
end
local gmatch_iter = wrap("gmatch", function(iterate) return iterate() end)
string.find = function(s, p, init, plain)
  local pattern = text(p)
  guard(s, p, plain or (pattern ~= nil and not sfind(pattern, SPECIALS)))
  return find(s, p, init, plain)
end
string.match = function(s, p, init)
  guard(s, p)
  return match(s, p, init)
end
string.gmatch = function(s, p)
  guard(s, p)  -- the iterations together visit each position once: one match's worst case
  local iterate = sgmatch(s, p)
  return function() return gmatch_iter(iterate) end
end
string.gsub = function(s, p, repl, n)
  guard(s, p)
  local subject, replacement = text(s), text(repl)
  if subject and replacement and sfind(replacement, "%", 1, true) then
    -- each match walks the replacement; an escape of an empty capture adds nothing, so no memory
    -- cap bounds how often it runs: (matches) x (escapes)
    local matches = #subject + 1
    if type(n) == "number" and n >= 0 and n < matches then matches = n end
    local escapes = select(2, sgsub(replacement, "%%", ""))
    if matches * escapes > pattern_limit then
      error("replacement too costly for the sandbox (" .. escapes .. " escapes for up to " .. matches
            .. " matches; limit: " .. pattern_limit .. " steps)", 2)
    end
  end
  return gsub(s, p, repl, n)
end
env.string = string

-- sort's own comparison of two strings is a C loop over their common prefix: sorting many
-- references to one long string compares megabytes per step, unseen. Comparing in Lua lets the
-- count hook see each comparison.
local sort = env.table.sort
local function less(a, b) return a < b end
env.table.sort = function(t, comp)
  if comp == nil then comp = less end
  return sort(t, comp)
end

-- table.insert(t, pos, v) shifts t[pos .. #t] up one slot, table.remove(t, pos) down one slot, in a
-- loop the count hook may not see; C converts pos to a 32-bit integer (NaN and what lies beyond 32
-- bits become -2^31: a loop of 2^31 steps). Priced by the slots they would shift.
local function check_move(name, t, pos, extra)
  local n = tonumber(pos)
  if type(t) ~= "table" or n == nil then return end  -- the library reports the bad argument
  if not (n > -2^31 and n < 2^31) then
    error(name .. ": position " .. tostring(n) .. " is beyond a 32-bit integer", 3)
  end
  local moves = #t + extra - n
  if moves > move_limit then
    error(name .. ": position " .. tostring(n) .. " would shift " .. moves .. " slots (limit: " .. move_limit
          .. " per call)", 3)
  end
end
local insert, remove = env.table.insert, env.table.remove
env.table.insert = function(t, ...)
  if select("#", ...) == 2 then check_move("table.insert", t, (...), 2) end
  return insert(t, ...)
end
env.table.remove = function(t, ...)
  if select("#", ...) >= 1 then check_move("table.remove", t, (...), 1) end
  return remove(t, ...)
end
