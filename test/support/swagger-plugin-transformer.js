// Runs the @nestjs/swagger CLI plugin under ts-jest, with the options nest-cli.json gives it, so the app under
// test documents its DTOs exactly as the build does.
const plugin = require('@nestjs/swagger/plugin');
const nestCli = require('../../nest-cli.json');

const options = nestCli.compilerOptions.plugins.find((p) => p.name === '@nestjs/swagger').options;

module.exports.name = 'nestjs-swagger-transformer';
// Bump when the options change, so ts-jest's cache is invalidated.
module.exports.version = 1;
module.exports.factory = (compiler) => plugin.before(options, compiler.program);
