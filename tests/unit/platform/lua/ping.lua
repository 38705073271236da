return "pong"
