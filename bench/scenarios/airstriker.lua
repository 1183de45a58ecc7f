-- Airstriker's scenario as Lua: the score gained each frame, done when the game is over.
local last = nil

function reward()
  local score = data.score
  local gained = 0
  if last ~= nil then gained = score - last end
  last = score
  return gained
end

function done()
  return data.gameover == 1 and data.lives == 0
end
