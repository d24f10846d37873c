int hostOnly() { return 0; }
