// The repair part of @lomo/operator; re-exported by the barrel.
export {};
