import { describe, expect, it } from 'vitest';
import Discord, { discordAvatarUrl, type DiscordProfile } from '../../../src/lib/providers/discord.js';
import { normalized, resolve, scopeOf, urlOf } from './helpers.js';

/** `GET https://discord.com/api/users/@me` with the `identify email` scopes. */
const ME_JSON: DiscordProfile = {
	id: '80351110224678912',
	username: 'nelly',
	discriminator: '0',
	global_name: 'Nelly',
	avatar: '8342729096ea3675442027381ff50dfe',
	verified: true,
	email: 'nelly@discord.example',
	flags: 64,
	banner: '06c16474723fe537c283b8efa61a30c8',
	accent_color: 16711680,
	premium_type: 1,
	public_flags: 64,
	mfa_enabled: true,
	locale: 'en-US'
};

describe('Discord preset', () => {
	it('is an OAuth 2 provider with explicit endpoints and identify+email scopes', () => {
		const discord = normalized(Discord());
		expect(discord).toMatchObject({ id: 'discord', name: 'Discord', type: 'oauth' });
		expect(urlOf(discord.authorization)).toBe('https://discord.com/api/oauth2/authorize');
		expect(scopeOf(discord)).toBe('identify email');
		expect(urlOf(discord.token)).toBe('https://discord.com/api/oauth2/token');
		expect(urlOf(discord.userinfo)).toBe('https://discord.com/api/users/@me');
		expect(discord.style).toEqual({ bg: '#5865F2', text: '#fff' });
	});

	it('maps /users/@me to the user, with the CDN avatar', async () => {
		expect(await Discord().profile?.(ME_JSON, {})).toEqual({
			id: '80351110224678912',
			name: 'Nelly',
			email: 'nelly@discord.example',
			image: 'https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png'
		});
	});

	it('animated avatars are GIFs; no global name → username; no email scope → null', async () => {
		const user = { ...ME_JSON, avatar: 'a_1269e74af4df7417b13759eae50c83dc', global_name: null, email: undefined };
		expect(await Discord().profile?.(user, {})).toEqual({
			id: '80351110224678912',
			name: 'nelly',
			email: null,
			image: 'https://cdn.discordapp.com/avatars/80351110224678912/a_1269e74af4df7417b13759eae50c83dc.gif'
		});
	});

	it('default avatars: new usernames by (id >> 22) % 6, legacy tags by discriminator % 5', () => {
		expect(discordAvatarUrl({ id: '80351110224678912', avatar: null, discriminator: '0' })).toBe(
			'https://cdn.discordapp.com/embed/avatars/5.png'
		);
		expect(discordAvatarUrl({ id: '1163532133004136458', avatar: null, discriminator: '0' })).toBe(
			'https://cdn.discordapp.com/embed/avatars/3.png'
		);
		expect(discordAvatarUrl({ id: '381370537446809600', avatar: null, discriminator: '0' })).toBe(
			'https://cdn.discordapp.com/embed/avatars/1.png'
		);
		expect(discordAvatarUrl({ id: '80351110224678912', avatar: null, discriminator: '1337' })).toBe(
			'https://cdn.discordapp.com/embed/avatars/2.png'
		);
		expect(discordAvatarUrl({ id: '80351110224678912', avatar: null, discriminator: '4821' })).toBe(
			'https://cdn.discordapp.com/embed/avatars/1.png'
		);
	});

	it('a malformed id gives default avatar 0 instead of throwing', () => {
		expect(discordAvatarUrl({ id: 'not-a-snowflake', avatar: null, discriminator: '0' })).toBe(
			'https://cdn.discordapp.com/embed/avatars/0.png'
		);
	});

	it('app options win: scope keeps the URL; custom profile and id', async () => {
		const discord = normalized(
			Discord({
				id: 'discord-guild',
				authorization: { params: { scope: 'identify email guilds' } },
				profile: (user) => ({ id: user.id, name: user.username })
			})
		);
		expect(discord.id).toBe('discord-guild');
		expect(scopeOf(discord)).toBe('identify email guilds');
		expect(urlOf(discord.authorization)).toBe('https://discord.com/api/oauth2/authorize');
		expect(await discord.profile?.(ME_JSON, {})).toEqual({ id: '80351110224678912', name: 'nelly' });
	});

	it('env inference: AUTH_DISCORD_ID/_SECRET; explicit options beat env', () => {
		const env = { AUTH_DISCORD_ID: '1100000000000000001', AUTH_DISCORD_SECRET: 'env-secret' };
		const [fromEnv] = resolve(env, Discord);
		expect(fromEnv).toMatchObject({ clientId: '1100000000000000001', clientSecret: 'env-secret' });
		const [explicit] = resolve(env, Discord({ clientSecret: 'explicit-secret' }));
		expect(explicit).toMatchObject({ clientId: '1100000000000000001', clientSecret: 'explicit-secret' });
	});
});
