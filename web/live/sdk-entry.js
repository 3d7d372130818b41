// The Embedded App SDK's two classes the live page uses, bundled by `make web-vendor` into
// live/vendor/discord-sdk.js (committed: the bot serves it, no npm at run time).
export { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";
