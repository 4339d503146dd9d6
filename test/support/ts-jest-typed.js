// The DTO and controller entry of jest.config.js: the same wrapper as ts-jest-shared.js under a path of its own,
// because Jest keeps one transformer per path and the two entries need a compiler each.
module.exports = require('./ts-jest-shared');
