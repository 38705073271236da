-- A fixture for embedded_lua_test: quotes ' " and a ]] bracket, "é".
local key = KEYS[1]
return redis.call('LPOP', key) -- ]]
